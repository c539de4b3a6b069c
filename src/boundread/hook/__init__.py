"""The hook entry: ``guard-check`` and ``budget ingest`` as the agents call them, and the hook protocol around the
decision - reading the payload in the sender's dialect (agents/), asking the decision core (guard/) and the budget
(budget/), answering, redirecting a refused read to a bounded slice, the post-tool backstop and batches.

    main.py      guard-check: the payload in, the answer out; options.py its options (declared once)
    ingest.py    the ``budget ingest`` PostToolUse hook
    ground.py, groundset.py   boundread's own commands on the agent's ground (the budget's self-checks)
    redirect.py, slices.py, permissions.py   redirect mode: a refused read answered with a bounded slice
    posttool.py, bigpayload.py, batch.py     the post-tool backstop, payloads too big to parse, PostToolBatch
    fence.py     what one call may load (a declaration tests/hook/test_fence.py reads)

It sits above guard/, budget/ and agents/, and below adapters/, which run it in-process. Nothing is imported
here: guard-check loads ``boundread.hook.main`` before every agent tool call.
"""
