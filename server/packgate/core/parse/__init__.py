"""tree-sitter-bash -> a small typed model of what a script does (statements, words, directives).

model.py holds the records and their enums, build.py the builder (node type -> method),
simple.py simple commands and declarations, words.py words and quoting, visit.py `children()`,
reuse.py what an editor's next parse takes over, edit.py the incremental-parse API the server calls
(a change applied to the kept tree, the re-parse, the state kept for the next change).
"""

from .build import DIRECTIVE, Builder, parse_bytes
from .grammar import new_parser
from .model import (AndOr, Assign, AssignMode, Block, Case, Command, Directive, DirectiveKind, Exit,
                    ExportNames, FuncDef, If, Lit, Loop, Occurrence, OccurrenceKind, Opaque, Opaque_,
                    Part, Ref, Script, SetOpt, Stmt, Sub, SubKind, TextEnum, Top, Unset, Word)
from .reuse import comment_interior
from .visit import children
from .words import MAX_DEPTH

_DIRECTIVE = DIRECTIVE  # hover reads the directive pattern by this name

__all__ = [
    "MAX_DEPTH", "AndOr", "Assign", "AssignMode", "Block", "Builder", "Case", "Command", "DIRECTIVE", "Directive",
    "DirectiveKind", "Exit", "ExportNames", "FuncDef", "If", "Lit", "Loop", "Occurrence",
    "OccurrenceKind", "Opaque", "Opaque_", "Part", "Ref", "Script", "SetOpt", "Stmt", "Sub", "SubKind",
    "TextEnum", "Top", "Unset", "Word", "children", "comment_interior", "new_parser", "parse_bytes",
]
