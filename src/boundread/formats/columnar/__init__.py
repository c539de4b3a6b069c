"""Parquet files, bounded: ``footer`` (what the file says about itself, standard library only: the PAR1 magic at
both ends and the footer's length, checked against the file's size) and ``handler`` (schema, row groups and row
count from the footer through pyarrow, the optional ``boundread[parquet]`` extra; ``--rows A-B`` reads only the
row groups that hold those rows).
"""
