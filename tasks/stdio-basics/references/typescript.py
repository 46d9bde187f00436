"""TypeScript reference solutions of the stdio-basics problems: the JavaScript ones with an
``import`` of ``fs`` and the types that the checker (tsc, non-strict) needs."""

from javascript import REFERENCES as JAVASCRIPT

# TypeScript: the JavaScript reference with an import and types where the checker needs them.
TYPES = {
    "roman-numerals": [("const table = [", "const table: [number, string][] = [")],
    "balanced-brackets": [("const pairs = {", "const pairs: Record<string, string> = {"),
                          ("const stack = [];", "const stack: string[] = [];")],
    "letter-frequency": [("const counts = new Array(26).fill(0);", "const counts: number[] = new Array(26).fill(0);"),
                         ("const out = [];", "const out: string[] = [];")],
}


def to_ts(js: dict) -> dict:
    out = {}
    for name, code in js.items():
        code = code.lstrip("\n").replace("require('fs').readFileSync", "fs.readFileSync")
        code = code.replace("const data = fs.", "const data: string[] = fs.")
        code = code.replace("const out = [];", "const out: string[] = [];") if name != "prefix-sums" else \
            code.replace("const out = [];", "const out: number[] = [];")
        code = code.replace("const row = [];", "const row: string[] = [];")
        code = code.replace("const primes = [];", "const primes: number[] = [];")
        for a, b in TYPES.get(name, []):
            code = code.replace(a, b)
        out[name] = "import * as fs from 'fs';\n\n" + code
    return out

REFERENCES = to_ts(JAVASCRIPT)
