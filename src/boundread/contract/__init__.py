"""The handler contract: what a format handler receives, what it writes into and what it returns.

Below ``formats/`` (which implements it) and below ``core/`` (the engine that dispatches to it), so the
two never import each other in a circle: ``model`` (Source, Request, Details, Outcome, the results),
``sink`` (the bounded writer), ``source`` (a path or bytes made a Source), ``kinds`` (the families of
kinds, declared once) and ``handler`` (the Protocol every handler module satisfies, checked by mypy).
"""
