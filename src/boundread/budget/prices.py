"""Token prices in Decimal USD per million tokens: overrides (``BOUNDREAD_BUDGET_PRICES``, else ``[budget.prices]``
in the user config - never a project file), genai-prices, then a flagged default.

genai-prices is imported inside the functions that compute cost, never at module level (the hook path does not
price anything: costs are computed when usage is recorded).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from boundread.budget.model import UsageRecord
from boundread.errors import UsageError

MTOK = Decimal(1_000_000)
# An unknown model is never free: by default it costs what the dearest common model costs (Opus-class).
DEFAULT = ("15", "75", "1.5", "18.75")
ENV_PRICES = "BOUNDREAD_BUDGET_PRICES"  # JSON: {"model": {"input": 3, "output": 15, ...}, "default": {...}}


@dataclass(frozen=True)
class Price:
    """Per-million-token prices for one model, and where they came from."""

    model: str
    input: Decimal
    output: Decimal
    cache_read: Decimal
    cache_write: Decimal
    source: str
    known: bool = True

    def cost(self, rec: UsageRecord) -> Decimal:
        return (
            rec.input * self.input
            + rec.output * self.output
            + rec.cache_read * self.cache_read
            + rec.cache_write * self.cache_write
        ) / MTOK


def _dec(value: object, where: str) -> Decimal:
    try:
        result = Decimal(str(value))
    except InvalidOperation:
        raise UsageError(f"price {value!r} in {where} is not a number", 'write it as 3 or "0.30"') from None
    if not result.is_finite() or result < 0:
        raise UsageError(f"price {value!r} in {where} must be zero or more", "fix the price")
    return result


def _price(model: str, spec: Any, source: str, known: bool = True) -> Price:
    if not isinstance(spec, dict):
        raise UsageError(f"prices for {model} in {source} must be a table", "use {input = 3, output = 15}")
    inp = _dec(spec.get("input", 0), source)
    return Price(
        model,
        inp,
        _dec(spec.get("output", 0), source),
        _dec(spec.get("cache_read", inp), source),
        _dec(spec.get("cache_write", inp), source),
        source,
        known,
    )


def _config_prices() -> tuple[dict[str, Any], str]:
    """``[budget.prices]`` from the user config (``$XDG_CONFIG_HOME/boundread/config.toml``), and its path.

    Never from a project file: the agent a budget watches can write ``pyproject.toml``, and a price of 0 there
    recorded its spend as $0, so the USD cap never tripped (issue 18). ``ledger_url`` is read the same way.
    """
    from boundread import tomlread
    from boundread.budget.ledgerurl import user_config

    candidate = Path(user_config())
    try:
        text = candidate.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, ""
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {candidate}: {exc}", "fix the file or its permissions") from exc
    try:
        data = tomlread.loads(text)
    except tomlread.TOMLError as exc:
        raise UsageError(f"cannot read {candidate}: {exc}", "fix the TOML") from exc
    table = data.get("budget", {}).get("prices", {}) if isinstance(data.get("budget"), dict) else {}
    return (table if isinstance(table, dict) else {}), str(candidate)


def project_prices(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` that still has ``[tool.boundread.budget.prices]``
    (no longer read: ``Pricer.load`` warns), or None."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                found = b"boundread.budget.prices" in candidate.read_bytes()[: 1 << 20]
            except OSError:
                return None
            return candidate if found else None
    return None


@dataclass
class Pricer:
    """Prices models for one command run; remembers each lookup (genai-prices matching is not free)."""

    overrides: dict[str, Price]
    default: Price
    _known: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, cwd: Path | None = None) -> Pricer:
        """Prices from ``BOUNDREAD_BUDGET_PRICES``, then the user config, then genai-prices. ``cwd``: where a
        project's ``pyproject.toml`` that still sets prices is looked for, to warn that they are ignored."""
        stale = project_prices(cwd or Path.cwd())
        if stale is not None:
            sys.stderr.write(f"boundread: warning: [tool.boundread.budget.prices] in {stale} is ignored - prices come"
                             " only from BOUNDREAD_BUDGET_PRICES or [budget.prices] in the user config"
                             " (the agent a budget watches can write a project file)\n")
        table, where = _config_prices()
        specs = {k: (v, f"config {where}") for k, v in table.items()}
        env = os.environ.get(ENV_PRICES)
        if env:
            try:
                parsed = json.loads(env)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{ENV_PRICES} is not JSON: {exc}", 'set it like {"m": {"input": 3}}') from exc
            if not isinstance(parsed, dict):
                raise UsageError(f"{ENV_PRICES} must be a JSON object", 'set it like {"m": {"input": 3}}')
            specs.update({k: (v, f"env {ENV_PRICES}") for k, v in parsed.items()})
        default_spec, default_src = specs.pop(
            "default",
            (
                dict(zip(("input", "output", "cache_read", "cache_write"), DEFAULT, strict=True)),
                "built-in default",
            ),
        )
        overrides = {m: _price(m, spec, src) for m, (spec, src) in specs.items()}
        return cls(overrides, _price("default", default_spec, default_src, known=False))

    def price(self, model: str) -> Price:
        """The per-million prices used for ``model`` (base tier) and their source."""
        if model in self.overrides:
            return self.overrides[model]
        calc = self._lookup(model)
        if calc is None:
            return Price(
                model,
                self.default.input,
                self.default.output,
                self.default.cache_read,
                self.default.cache_write,
                f"default price ({self.default.source}): unknown model",
                known=False,
            )
        mp = calc.model_price
        version = _genai_version()

        def base(name: str, fallback: Decimal) -> Decimal:
            value = getattr(mp, name, None)
            value = getattr(value, "base", value)
            return Decimal(str(value)) if value is not None else fallback

        inp = base("input_mtok", Decimal(0))
        return Price(
            model,
            inp,
            base("output_mtok", Decimal(0)),
            base("cache_read_mtok", inp),
            base("cache_write_mtok", inp),
            f"genai-prices {version}: {calc.provider.id}/{calc.model.id}",
        )

    def cost(self, rec: UsageRecord) -> UsageRecord:
        """``rec`` with its cost, price source and unknown-model flag filled in."""
        from dataclasses import replace

        if rec.model in self.overrides:
            price = self.overrides[rec.model]
            return replace(rec, cost=price.cost(rec), price_source=price.source)
        calc = self._lookup(rec.model, rec)
        if calc is None:
            price = self.price(rec.model)
            return replace(rec, cost=price.cost(rec), flagged=True, price_source=price.source)
        return replace(rec, cost=Decimal(calc.total_price), price_source=f"genai-prices {calc.model.id}")

    def _lookup(self, model: str, rec: UsageRecord | None = None) -> Any:
        """genai-prices' calculation for ``model`` (a 1-token probe when no usage is given); None: unknown."""
        from genai_prices import Usage, calc_price

        if self._known.get(model, True) is None:
            return None
        r = rec or UsageRecord(model, input=1, output=1)
        # genai-prices counts input_tokens as all input, cache reads and writes included.
        usage = Usage(
            input_tokens=r.input + r.cache_read + r.cache_write,
            output_tokens=r.output,
            cache_read_tokens=r.cache_read,
            cache_write_tokens=r.cache_write,
        )
        provider = "anthropic" if model.startswith("claude") else None
        try:
            calc = calc_price(usage, model_ref=model, provider_id=provider)
        except LookupError:
            self._known[model] = None
            return None
        self._known[model] = True
        return calc


def _genai_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("genai-prices")
    except PackageNotFoundError:
        return "?"
