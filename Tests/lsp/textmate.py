"""A small TextMate tokenizer, enough for the routine grammar: match rules with captures
(nested patterns in a capture too) and one-line begin/end rules, earliest match first and
the first rule on a tie, as editors apply them. The grammar keeps to the regular expression
syntax that Oniguruma and Python share."""

import json
import re


class Grammar:
    def __init__(self, path):
        self.data = json.loads(open(path, encoding="utf-8").read())
        self.scope = self.data["scopeName"]
        self.compiled = {}

    def rules(self, patterns):
        for rule in patterns:
            if "include" in rule:
                yield from self.rules([self.data["repository"][rule["include"][1:]]])
            else:
                yield rule

    def regex(self, source):
        if source not in self.compiled:
            self.compiled[source] = re.compile(source)
        return self.compiled[source]

    def tokenize(self, line):
        """The scopes of each character of `line`, outermost first."""
        scopes = [[self.scope] for _ in line]
        self.apply(line, 0, len(line), self.data["patterns"], scopes)
        return scopes

    def apply(self, line, start, end, patterns, scopes):
        rules = list(self.rules(patterns))
        pos = start
        while pos < end:
            best = None
            for rule in rules:
                m = self.regex(rule.get("match") or rule["begin"]).search(line, pos, end)
                if m and (best is None or m.start() < best[1].start()):
                    best = (rule, m)
            if best is None:
                return
            rule, m = best
            if "match" in rule:
                self.mark(scopes, m.start(), m.end(), rule.get("name"))
                self.captures(line, m, rule.get("captures", {}), scopes)
                pos = max(m.end(), m.start() + 1)
            else:
                close = self.regex(rule["end"]).search(line, m.end(), end)
                stop = close.end() if close else end
                self.mark(scopes, m.start(), stop, rule.get("name"))
                self.apply(line, m.end(), close.start() if close else end, rule.get("patterns", []), scopes)
                pos = max(stop, m.start() + 1)

    def captures(self, line, m, captures, scopes):
        for group, capture in captures.items():
            g = int(group)
            if m.group(g) is None:
                continue
            self.mark(scopes, m.start(g), m.end(g), capture.get("name"))
            if "patterns" in capture:
                self.apply(line, m.start(g), m.end(g), capture["patterns"], scopes)

    @staticmethod
    def mark(scopes, start, end, name):
        if name:
            for i in range(start, end):
                scopes[i].append(name)
