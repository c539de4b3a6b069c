from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from helpers_budget import assistant_line, write_transcript

from boundread.agents.sessionfiles import ingest
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope, UsageRecord
from boundread.budget.prices import Pricer
from boundread.errors import UsageError

SONNET = Decimal(10 * 3 + 100 * 15 + 1000 * Decimal("0.3") + 50 * Decimal("3.75")) / 1_000_000


def test_streaming_duplicates_count_once_and_reingest_reads_only_new_bytes(tmp_path: Path, backend: str) -> None:
    t = tmp_path / "s-1.jsonl"
    write_transcript(t, 0, 10, repeats=3)
    with open(t, "a", encoding="utf-8") as f:
        f.write('garbage line\n{"cut": \n')
        f.write(assistant_line(99)[:40])  # half-written last line
    with open_ledger() as ledger:
        first = ingest(ledger, t)
        assert (first.records, first.duplicates, len(first.warnings)) == (10, 20, 2)
        assert first.end == t.stat().st_size - 40
        totals = ledger.totals(Scope("session", "s-1"))
        assert (totals.input, totals.output, totals.cache_read, totals.cache_write) == (100, 1000, 10000, 500)
        assert totals.cost == SONNET * 10
        assert totals.warnings == 2
        with open(t, "a", encoding="utf-8") as f:  # the half line completes, then more requests arrive
            f.write(assistant_line(99)[40:])
        write_transcript(t, 10, 5)
        again = ingest(ledger, t)
        assert again.start == first.end and again.records == 6
        assert ledger.totals(Scope("session", "s-1")).output == 1600
        assert ingest(ledger, t).records == 0


def test_bad_counts_are_warned_and_synthetic_messages_skipped(tmp_path: Path, backend: str) -> None:
    t = tmp_path / "t.jsonl"
    t.write_text(
        assistant_line(1, inp=-5)
        + assistant_line(2, model="<synthetic>")
        + json.dumps({"message": {"usage": {"input_tokens": "many"}}})
        + "\n",
        encoding="utf-8",
    )
    with open_ledger() as ledger:
        result = ingest(ledger, t, session="x")
        assert result.records == 2
        assert any("input_tokens=-5" in w for w in result.warnings)
        assert ledger.totals(Scope("session", "x")).input == 0


def test_prices_are_decimal_and_an_unknown_model_is_flagged_never_free() -> None:
    pricer = Pricer.load()
    rec = pricer.cost(UsageRecord("claude-sonnet-4-5", 10, 100, 1000, 50))
    assert isinstance(rec.cost, Decimal) and rec.cost == SONNET and not rec.flagged
    price = pricer.price("claude-sonnet-4-5")
    assert (price.input, price.output, price.cache_read, price.cache_write) == (3, 15, Decimal("0.3"), Decimal("3.75"))
    unknown = pricer.cost(UsageRecord("no-such-model-zz", 1_000_000))
    assert unknown.flagged and unknown.cost == Decimal(15)


def test_price_overrides_from_the_user_config_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prices come from the user config and the environment only (issue 18: never from a project file)."""
    config = tmp_path / "home" / ".config" / "boundread" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[budget.prices]\n"house-model" = { input = "2", output = "4" }\n'
                      "default = { input = 1, output = 1 }\n", encoding="utf-8")
    pricer = Pricer.load(tmp_path)
    assert pricer.cost(UsageRecord("house-model", 1_000_000, 1_000_000)).cost == Decimal(6)
    assert pricer.cost(UsageRecord("zz-unknown", 1_000_000)).cost == Decimal(1)
    monkeypatch.setenv("BOUNDREAD_BUDGET_PRICES", '{"house-model": {"input": -1}}')
    with pytest.raises(UsageError, match="zero or more"):
        Pricer.load(tmp_path)
