"""The environment each launch would see, on every path, and why.

The walk keeps a list of states (one per path through if/case/&&/||/loops). A state maps each
shell variable to its value, its export attribute and the assignment it came from. Child
processes (subshells, background jobs, pipeline stages, command substitutions, `bash -c`,
containers) run on copies that are thrown away afterwards, which is exactly how their exports
get lost. Facts are computed once here (facts.py); rules only read them.

Where things are: walk.py (statements, paths, merging), loops.py (for / while), commands.py
(the command table: what a command does, as effects.py records), declare.py (the declarations
the parser knows, as the same effects, and every assignment), apply.py (the effects applied to
the paths), environ.py (what wrappers do to their child's environment), values.py (words),
patterns.py (case patterns), launches.py, sourcing.py, children.py, relevance.py (static
pre-passes), record.py (the recorder of facts), context.py (the walk's input and where it is),
incremental.py (checkpoints and take-over, wrapping the recorder), library.py (the functions
never called), analysis.py (the Flow that builds the parts and joins them).
"""

from .analysis import EditorWalk, Flow, analyze_flow, analyze_flow_for_editor
from .children import MAX_CHILD_DEPTH
from .commands import COMMANDS
from .facts import (NAMED, UNREAD, UNSET, FlowResult, GateSite, Label, LabelKind, Launch, LaunchPath, Lost, Origin,
                    Overwrite, Reason, Seen, Stop, Unfollowed, UnfollowedKind, Val, ValKind, Var)
from .incremental import Checkpoint, Moves, Resume, compose, moves_of
from .relevance import RelevanceMemo, relevant_names
from .state import MAX_LABELS, State
from .walk import MAX_CALL_DEPTH, MAX_CALL_STEPS, MAX_PATHS

__all__ = [
    "COMMANDS", "Checkpoint", "EditorWalk", "Flow", "FlowResult", "GateSite", "Label", "LabelKind", "Launch",
    "LaunchPath", "Lost", "MAX_CALL_DEPTH", "MAX_CALL_STEPS", "MAX_CHILD_DEPTH", "MAX_LABELS",
    "MAX_PATHS", "Moves", "Origin", "Overwrite", "Reason", "RelevanceMemo", "Resume", "Seen", "State", "Stop",
    "NAMED", "UNREAD", "UNSET", "Unfollowed", "UnfollowedKind", "Val", "ValKind", "Var", "analyze_flow",
    "analyze_flow_for_editor", "compose",
    "moves_of", "relevant_names",
]
