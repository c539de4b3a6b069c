"""Neutral helpers for OLE compound files (MS-CFB) and what Outlook keeps in them (a leading underscore: not a
family of its own): ``reader`` reads the header, FAT, mini FAT, directory and one stream, each bounded;
``writer`` writes a tree of storages and streams as a file (an attached message handed on as a file of its own);
``props`` reads a message storage's MAPI properties; ``rtf`` decompresses compressed RTF (MS-OXRTFCP) and
takes the HTML or text it encapsulates (MS-OXRTFEX), or strips RTF to text."""
