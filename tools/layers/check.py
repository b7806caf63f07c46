#!/usr/bin/env python3
"""No import cycle between a crate's modules, checked by parsing the code.

Usage: tools/layers/check.py [--self-test] [--depth N] [--only MODULE] [--graph] CRATE_ROOT...
  (CRATE_ROOT: a crate's lib.rs; make check and make test run it on every library
  of the workspace, see scripts/test.sh)

The module tree is read from the `mod` declarations (those under `#[cfg(test)]`
left out: test code may use anything), each file parsed with tree-sitter's Rust
grammar (PyPI: tree-sitter, tree-sitter-rust; scripts/ensure-tools.sh layers). A
module uses another when its file names a path into it: in a `use` (groups,
aliases and globs included) or in code (`crate::types::epoch_seconds()`,
`super::keys::user(id)`, `store::Store` after `use crate::store`), re-exports
followed to the module that defines the item. An `impl` counts for the file that
writes it, which is what cargo-modules gets wrong for a module-level check
(docs/architecture.md). The uses are folded to the first N levels below the root
(default 1: `store::users` counts as `store`), and the folded graph must have no
cycle: the first one found is printed with the line that makes each of its uses,
and the exit status is 1. `--graph` prints the folded edges.
"""

import argparse
import graphlib
import sys
from pathlib import Path

import tree_sitter_rust
from tree_sitter import Language, Parser

PARSER = Parser(Language(tree_sitter_rust.language()))


def is_cfg_test(attr) -> bool:
    text = attr.text.decode()
    return text.replace(" ", "") in ("#[cfg(test)]",)


class Module:
    def __init__(self, path: tuple, file: Path, node, source: bytes):
        self.path = path  # ("store", "users"); () is the crate root
        self.file = file
        self.node = node  # the source_file, or an inline mod's declaration_list
        self.source = source
        self.children: dict[str, "Module"] = {}
        self.reexports: dict[str, list] = {}  # `pub use` name -> its segments
        self.aliases: dict[str, list] = {}  # `use` name -> its segments
        self.uses: list = []  # (segments, line, text)


def child_items(node):
    """The items of a file or block, each with whether `#[cfg(test)]` precedes it."""
    test = False
    for child in node.named_children:
        if child.type == "attribute_item":
            test = test or is_cfg_test(child)
            continue
        yield child, test
        test = False


def load(path: tuple, file: Path, node=None, source=None) -> Module:
    if node is None:
        source = file.read_bytes()
        node = PARSER.parse(source).root_node
    module = Module(path, file, node, source)
    for item, test in child_items(node):
        if item.type != "mod_item" or test:
            continue
        name = item.child_by_field_name("name").text.decode()
        body = item.child_by_field_name("body")
        if body is not None:
            module.children[name] = load(path + (name,), file, body, source)
            continue
        base = file.parent if file.name in ("lib.rs", "mod.rs", "main.rs") else file.with_suffix("")
        for candidate in (base / f"{name}.rs", base / name / "mod.rs"):
            if candidate.exists():
                module.children[name] = load(path + (name,), candidate)
                break
        else:
            sys.exit(f"{file}: mod {name}: no {name}.rs or {name}/mod.rs")
    return module


def use_leaves(node, prefix):
    """The paths a `use` tree names: (segments, bound name or None for a glob)."""
    kind = node.type
    if kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        base = prefix + (segments(path) if path is not None else [])
        yield from use_leaves(node.child_by_field_name("list"), base)
    elif kind == "use_list":
        for child in node.named_children:
            yield from use_leaves(child, prefix)
    elif kind == "use_as_clause":
        alias = node.child_by_field_name("alias").text.decode()
        yield prefix + segments(node.child_by_field_name("path")), alias
    elif kind == "use_wildcard":
        inner = [c for c in node.named_children]
        yield prefix + (segments(inner[0]) if inner else []), None
    else:
        segs = prefix + segments(node)
        if len(segs) > 1 and segs[-1] == "self":  # `use crate::domain::{self, ...}`
            segs = segs[:-1]
        yield segs, segs[-1]


def segments(node) -> list:
    """`crate::store::Store` (a path node, generics dropped) as its segments."""
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name").text.decode()
        return (segments(path) if path is not None else []) + [name]
    if node.type == "generic_type":
        return segments(node.child_by_field_name("type"))
    return [node.text.decode()]


def collect(module: Module):
    """Fills in the module's uses, re-exports and aliases (and its children's)."""

    def walk(node):
        if node.type in ("source_file", "declaration_list"):
            items = child_items(node)
        else:
            items = ((c, False) for c in node.named_children)
        for child, test in items:
            if test:
                continue
            if child.type == "mod_item" and child.child_by_field_name("body") is not None:
                continue  # an inline module: its own Module
            if child.type == "use_declaration":
                public = any(c.type == "visibility_modifier" for c in child.named_children)
                for segs, name in use_leaves(child.child_by_field_name("argument"), []):
                    line = child.start_point[0] + 1
                    module.uses.append((segs, line, "use " + "::".join(segs)))
                    if name is not None:
                        module.aliases[name] = segs
                        if public:
                            module.reexports[name] = segs
                continue
            if child.type in ("scoped_identifier", "scoped_type_identifier"):
                parent = child.parent
                if parent is None or parent.type not in ("scoped_identifier", "scoped_type_identifier") or parent.child_by_field_name("path") != child:
                    line = child.start_point[0] + 1
                    module.uses.append((segments(child), line, child.text.decode()))
            walk(child)

    walk(module.node)
    for child in module.children.values():
        collect(child)


class Crate:
    def __init__(self, root: Path):
        self.root = load((), root)
        self.modules = {}
        stack = [self.root]
        while stack:
            m = stack.pop()
            self.modules[m.path] = m
            stack.extend(m.children.values())
        collect(self.root)

    def resolve(self, segs: list, at: tuple, depth: int = 0):
        """The module a path used in module `at` lands in (None: outside the crate)."""
        if not segs or depth > 8:
            return None
        first, rest = segs[0], list(segs[1:])
        here = self.modules[at]
        if first == "crate":
            base = ()
        elif first == "self":
            base = at
        elif first == "super":
            base = at[:-1]
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
        elif first in here.children:
            base, rest = at + (first,), rest
        elif first in here.aliases and here.aliases[first] != segs:
            target = self.resolve(here.aliases[first], at, depth + 1)
            if target is None or self.modules.get(target) is None:
                return None
            base = target
        else:
            return None
        while rest and rest[0] in self.modules[base].children:
            base, rest = base + (rest[0],), rest[1:]
        if rest and rest[0] in self.modules[base].reexports:
            followed = self.resolve(self.modules[base].reexports[rest[0]], base, depth + 1)
            if followed is not None:
                return followed
        return base

    def edges(self):
        """Every use between two modules: (from, to, file, line, text)."""
        for at, m in self.modules.items():
            for segs, line, text in m.uses:
                target = self.resolve(segs, at)
                if target is not None and target != at:
                    yield at, target, m.file, line, text


def fold(path: tuple, depth: int) -> str:
    return "::".join(path[:depth]) or "crate"


def self_test() -> None:
    """The check can fail: a made-up crate with a cycle must be refused, naming the
    use, and an `impl` counts for the file that writes it, not for its type's."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp)
        (src / "lib.rs").write_text("pub mod domain;\npub mod store;\n#[cfg(test)]\nmod tests;\n")
        (src / "domain.rs").write_text("pub struct Ambulance;\n")
        (src / "store.rs").write_text(
            "use crate::domain::Ambulance;\npub struct Item;\n"
            "impl From<Item> for Ambulance { fn from(_: Item) -> Self { Ambulance } }\n"
        )
        (src / "tests.rs").write_text("use crate::store::Item;\n")
        crate = Crate(src / "lib.rs")
        edges = {(a, b) for a, b, *_ in crate.edges()}
        assert edges == {(("store",), ("domain",))}, edges
        (src / "domain.rs").write_text("pub struct Ambulance;\nfn f() -> crate::store::Item { todo!() }\n")
        edges = {(a, b) for a, b, *_ in Crate(src / "lib.rs").edges()}
        assert (("domain",), ("store",)) in edges, edges


def check(root: Path, edges: list, only: str, opts) -> int:
    """The folded graph of `edges` (those inside `only` when given) has no cycle."""
    graph: dict[str, set] = {}
    why: dict[tuple, tuple] = {}
    for a, b, file, line, text in edges:
        if only and not (a[:1] == b[:1] == (only,)):
            continue
        fa, fb = fold(a, opts.depth), fold(b, opts.depth)
        if fa == fb or fb == "crate":
            continue
        graph.setdefault(fa, set()).add(fb)
        why.setdefault((fa, fb), (file, line, text))
    if opts.graph:
        for a in sorted(graph):
            print(f"{root}: {a} -> {', '.join(sorted(graph[a]))}")
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as err:
        cycle = list(reversed(err.args[1]))
        print(f"{root}: import cycle between modules: {' -> '.join(cycle)}")
        for a, b in zip(cycle, cycle[1:]):
            file, line, text = why[(a, b)]
            print(f"  {a} uses {b}: {file}:{line}: {text.strip()}")
        return 1
    where = f"inside {only}" if only else "of the crate"
    print(f"{root}: no import cycle between the modules {where} (depth {opts.depth})")
    return 0


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--depth", type=int, default=1)
    args.add_argument("--graph", action="store_true")
    args.add_argument(
        "--only", default="", help="only the modules below this one, each of a list checked apart (`domain,store`)"
    )
    args.add_argument("--self-test", action="store_true", help="first check that the check can fail")
    args.add_argument("roots", nargs="+", type=Path)
    opts = args.parse_args()
    if opts.self_test:
        self_test()
    status = 0
    for root in opts.roots:
        crate = Crate(root)
        edges = list(crate.edges())
        for only in opts.only.split(",") if opts.only else [""]:
            status |= check(root, edges, only, opts)
    return status


if __name__ == "__main__":
    sys.exit(main())
