#!/usr/bin/env python3
"""Independent oracle for HistoryOracleTests: 400 seeded random records over the ECB history and their
exact conversions (Python fractions) in four rounding modes. Usage: oracle.py eurofxref-hist.csv"""
import csv, random, sys
from fractions import Fraction as F

rows = {}
with open(sys.argv[1]) as f:
    r = csv.reader(f); h = next(r)
    for line in r:
        rows[line[0]] = {h[i]: line[i] for i in range(1, len(h)) if h[i]}
days = sorted(rows)

def minor_units(code):  # ISO 4217: these have none; every other ECB currency has 2
    return {'JPY': 0, 'KRW': 0, 'ISK': 0, 'TRL': 0}.get(code, 2)

def rounded(v, m, mode):
    scaled = v * 10**m
    sign = -1 if scaled < 0 else 1
    a = abs(scaled); q, r = divmod(a.numerator, a.denominator); rem = F(r, a.denominator)
    if rem == 0 or mode == 'down': up = False
    elif mode == 'up': up = True
    elif mode == 'half-up': up = rem >= F(1, 2)
    else: up = rem > F(1, 2) or (rem == F(1, 2) and q % 2 == 1)
    q = (q + (1 if up else 0)) * sign
    s = str(abs(q)).rjust(m + 1, '0')
    return ('-' if q < 0 else '') + (s if m == 0 else s[:-m] + '.' + s[-m:])

random.seed(20261129)
records = [['date', 'amount', 'from', 'to']]
expected = [['half-up', 'half-even', 'down', 'up']]
while len(records) < 401:
    d = random.choice(days)
    rates = {k: v for k, v in rows[d].items() if v != 'N/A'}; rates['EUR'] = '1'
    a, b = random.sample(sorted(rates), 2)
    digits = random.randint(1, 12); dec = random.randint(0, 4)
    n = random.randint(1, 10**digits)
    amount = F(n, 10**dec) * random.choice([1, -1])
    padded = str(n).rjust(dec + 1, '0')
    text = ('-' if amount < 0 else '') + (str(n) if dec == 0 else padded[:-dec] + '.' + padded[-dec:])
    v = amount * F(rates[b]) / F(rates[a])
    records.append([d, text, a, b])
    expected.append([rounded(v, minor_units(b), m) for m in ['half-up', 'half-even', 'down', 'up']])
csv.writer(open('random-400.csv', 'w', newline=''), lineterminator='\n').writerows(records)
csv.writer(open('random-400.expected.csv', 'w', newline=''), lineterminator='\n').writerows(expected)
