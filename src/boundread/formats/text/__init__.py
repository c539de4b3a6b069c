"""Plain text: the handler (any encoding, streamed) and, for the encodings where a newline is one byte, the fast
paths it takes - ``--lines`` and ``--grep`` over big byte blocks (scan, with the byte needles a pattern must
contain from needles) and ``--tail`` read from the end (tail)."""
