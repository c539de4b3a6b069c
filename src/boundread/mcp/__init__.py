"""``boundread mcp``: the extractors as an MCP server, for agents that have no shell.

    roots.py   which folders the server serves, and the check that a path lies inside them
    calls.py   the next *tool call* (``pages(path="r.pdf", range="6-10")``) for a CLI ``next`` command
    tools.py   the blocking work of each tool, on boundread's engine: a Reply (text, JSON envelope, file)
    reply.py   the Target a call names, the Reply, the server's limits, the save of a slice
    slices.py  a slice read and fitted within the server's cap (an ``offset`` goes on in a cut one)
    listing.py list_zip's reply; plan.py chunks' reply
    server.py  the MCPServer (the official ``mcp`` SDK, extra ``boundread[mcp]``): tools, roots, transports

Only server.py imports the SDK; the rest is standard library and boundread.
"""
