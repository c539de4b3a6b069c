"""Tests of the byte-level readers (boundread.bytelevel)."""
