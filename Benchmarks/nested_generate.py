#!/usr/bin/env python3
"""Seeded Stripe-shaped balance transactions for Benchmarks/nested.sh (issue 31, section 6).

Writes, into --out-dir, the same ROWS records three ways:
  stripe.jsonl       one record per line, as Stripe's API writes a balance transaction: amounts in minor units,
                     lower-case codes, unix seconds, a nested `source` object and a `fee_details` array
  stripe-list.json   the same records as a list document, `{"object": "list", "data": [...], "has_more": false}`
  flat.jsonl         the same records without their nested members (`source`, `fee_details`): what the fast path
                     read before nested values stayed on it
  flat-list.json     those flat records as a list document
and shopify.jsonl, Shopify-shaped orders whose amount is at total_price_set.shop_money.amount.
"""
import argparse
import json
import os
import random

CURRENCIES = "usd gbp jpy chf sek nok dkk pln czk huf aud cad nzd hkd sgd".split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240201)
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    paths = {name: os.path.join(args.out_dir, name) for name in ("stripe.jsonl", "stripe-list.json", "flat.jsonl", "flat-list.json", "shopify.jsonl")}
    files = {name: open(path, "w", buffering=1 << 20) for name, path in paths.items()}
    for name in ("stripe-list.json", "flat-list.json"):
        files[name].write('{"object": "list", "data": [\n')
    for n in range(args.rows):
        amount = rng.randrange(50, 5_000_000)
        fee = -(amount * 29 // 1000 + 30)
        currency = rng.choice(CURRENCIES)
        created = 1704067200 + rng.randrange(366 * 86400)
        record = {
            "id": f"txn_{rng.getrandbits(96):024x}",
            "object": "balance_transaction",
            "amount": amount,
            "available_on": created + 2 * 86400,
            "created": created,
            "currency": currency,
            "description": f"Payment for invoice {n}",
            "exchange_rate": None,
            "fee": fee,
            "fee_details": [
                {"amount": -fee, "application": None, "currency": currency, "description": "Stripe processing fees", "type": "stripe_fee"}
            ],
            "net": amount + fee,
            "reporting_category": "charge",
            "source": {"id": f"ch_{rng.getrandbits(96):024x}", "object": "charge"},
            "status": "available",
            "type": "charge",
        }
        line = json.dumps(record, separators=(",", ":"))
        files["stripe.jsonl"].write(line + "\n")
        files["stripe-list.json"].write(("" if n == 0 else ",\n") + line)
        flat = {key: value for key, value in record.items() if key not in ("fee_details", "source")}
        flat_line = json.dumps(flat, separators=(",", ":"))
        files["flat.jsonl"].write(flat_line + "\n")
        files["flat-list.json"].write(("" if n == 0 else ",\n") + flat_line)
        money = {"amount": f"{amount // 100}.{amount % 100:02d}", "currency_code": currency.upper()}
        order = {
            "id": 5_000_000_000 + n,
            "name": f"#{1000 + n}",
            "created_at": "2024-03-01T10:00:00-05:00",
            "total_price_set": {"shop_money": money, "presentment_money": money},
            "line_items": [{"id": n, "title": "Widget", "quantity": 1, "price": money["amount"]}],
        }
        files["shopify.jsonl"].write(json.dumps(order, separators=(",", ":")) + "\n")
    for name in ("stripe-list.json", "flat-list.json"):
        files[name].write('\n], "has_more": false, "url": "/v1/balance_transactions"}\n')
    for handle in files.values():
        handle.close()


if __name__ == "__main__":
    main()
