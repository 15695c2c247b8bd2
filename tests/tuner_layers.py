#!/usr/bin/env python3
"""tuner_layers.py DIR -- whether the C files of DIR (the tuner, tuner/) form
layers: parts that depend on each other downward only, never in a circle
(the tuner's structure: options and the sweep's shared pieces below the
modes, tuner.c's main above them).

A part is a base name: X.h and X.c are part X.  Three rules, each line of
output one breach:

  1. A header declares only what its own .c defines: every function
     prototype and every extern variable at file scope of X.h is defined,
     not static, in X.c.
  2. A .c file defines for others only what its own header declares: every
     function or variable defined at file scope of X.c and not static is
     declared in X.h (main excepted), and X.c declares no function or extern
     variable itself (what it uses of others comes through their headers).
  3. The parts' include graph has no cycle: X -> Y when X.h or X.c has
     #include "Y.h" and Y.h is in DIR (Y != X).

With rules 1 and 2 every use of another part's definition goes through that
part's header, so an acyclic include graph means an acyclic dependency graph:
a shared header whose functions are defined in the file that includes the
modes breaks rule 1, a mode including the file that includes it breaks rule 3.
The C is read after removing comments, string and character literals and
preprocessor lines; extern "C" blocks are transparent.

Exit 0: layered; 1: breaches printed on stdout; 2: DIR is not a directory.
"""
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_]\w*")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
STORAGE_WORDS = {"static", "extern", "inline", "const", "volatile", "typedef"}


def strip_code(text):
    """The text without comments, literals' contents and preprocessor lines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines, cont = [], False
    for line in "".join(out).split("\n"):
        directive = cont or line.lstrip().startswith("#")
        cont = directive and line.rstrip().endswith("\\")
        lines.append("" if directive else line)
    return re.sub(r'extern\s*""\s*\{', " ", "\n".join(lines))


def top_level(code):
    """File-scope items: ('def', head) for a function definition, ('decl',
    text) for a declaration, brace contents collapsed to {}."""
    items, buf, i, n = [], [], 0, len(code)
    while i < n:
        c = code[i]
        if c == ";":
            items.append(("decl", "".join(buf).strip()))
            buf = []
        elif c == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(code[j], 0)
                j += 1
            head = "".join(buf).strip()
            if head.endswith(")"):
                items.append(("def", head))
                buf = []
            else:
                buf.append("{}")
            i = j
            continue
        elif c != "}":          # the close of an extern "C" block
            buf.append(c)
        i += 1
    return [(kind, " ".join(text.split())) for kind, text in items if text]


def declared_name(text):
    """(name, is_function, storage words) of one declaration or definition
    head, or None for a type declaration."""
    words = IDENT.findall(text.split("(")[0].split("[")[0].split("=")[0])
    storage = STORAGE_WORDS.intersection(words)
    if "typedef" in storage or re.fullmatch(r"(struct|union|enum)\b[^=(]*\{\}", text):
        return None
    paren = text.find("(")
    head = text.split("=")[0]
    if 0 <= paren < len(head):
        inner = text[paren + 1:].lstrip()
        if inner.startswith("*"):           # a pointer to a function: a variable
            return IDENT.match(inner.lstrip("* ")).group(0), False, storage
        names = IDENT.findall(text[:paren])
        return (names[-1], True, storage) if names else None
    names = IDENT.findall(head.split("[")[0])
    return (names[-1], False, storage) if names else None


def read_part(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return text, top_level(strip_code(text))


def check(root):
    files = sorted(f for f in os.listdir(root) if f.endswith((".c", ".h")))
    headers = {f[:-2] for f in files if f.endswith(".h")}
    sources = {f[:-2] for f in files if f.endswith(".c")}
    problems, graph = [], {}
    for f in files:
        part, kind = f[:-2], f[-1]
        text, items = read_part(os.path.join(root, f))
        for inc in INCLUDE.findall(text):
            if inc.endswith(".h") and inc[:-2] in headers and inc[:-2] != part:
                graph.setdefault(part, set()).add(inc[:-2])
        graph.setdefault(part, set())
        if kind == "h":
            defined = set()
            if part in sources:
                for k, t in read_part(os.path.join(root, part + ".c"))[1]:
                    d = declared_name(t)
                    if d and "static" not in d[2] and (k == "def" or "extern" not in d[2]):
                        defined.add(d[0])
            for k, t in items:
                d = declared_name(t)
                if k != "decl" or not d or "static" in d[2] or not (d[1] or "extern" in d[2]):
                    continue
                if d[0] not in defined:
                    problems.append(f"{f}: declares {d[0]}, which {part}.c does not define")
        else:
            declared = set()
            if part in headers:
                for k, t in read_part(os.path.join(root, part + ".h"))[1]:
                    d = declared_name(t)
                    if d and k == "decl":
                        declared.add(d[0])
            for k, t in items:
                d = declared_name(t)
                if not d or "static" in d[2]:
                    continue
                if k == "decl" and (d[1] or "extern" in d[2]):
                    problems.append(f"{f}: declares {d[0]} itself; take it from the header of the file that defines it")
                elif d[0] != "main" and d[0] not in declared:
                    problems.append(f"{f}: defines {d[0]} for other files, but {part}.h does not declare it")
    problems += [f"include circle: {' -> '.join(c)}" for c in cycles(graph)]
    return problems


def cycles(graph):
    """One cycle (first part repeated at its end) per back edge of a
    depth-first search over the parts in name order."""
    state, stack, found = {}, [], []

    def visit(v):
        state[v] = "open"
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == "open":
                found.append(stack[stack.index(w):] + [w])
            elif w not in state:
                visit(w)
        stack.pop()
        state[v] = "done"

    for v in sorted(graph):
        if v not in state:
            visit(v)
    return found


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(f"usage: {os.path.basename(argv[0])} DIR  (DIR: a directory of C files, e.g. tuner)", file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
