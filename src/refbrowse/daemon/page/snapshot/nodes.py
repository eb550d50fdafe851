"""What one node of the parsed tree says: the tests the view uses to keep, fold or drop its line."""

from __future__ import annotations

import re

from refbrowse.daemon.page.snapshot.roles import CONTEXT, LANDMARKS, VALUE_ROLES, actionable, text_of
from refbrowse.daemon.page.snapshot.tree import Node

TEXT_LIMIT = 300
_SHOWN_STATES = ("checked", "disabled", "expanded", "pressed", "selected", "invalid", "level")
_MARKED_STATES = (("required", "[required]"), ("collapsed", "[expanded=false]"), ("draggable", "[draggable]"))
# The chosen page, filter or facet: aria-current, or the one item of a list the page's class marks chosen.
_CHOSEN_STATES = (("current", "[current]"), ("chosen", "[selected]"))
FORM_NAME_LIMIT = 24  # longer form names are generated, not words


def shown_choice(node: Node) -> str | None:
    """The text a custom select shows as its choice (Material's selects keep it in spans inside).

    Only when nothing inside can be acted on (an open list's options would be
    text too), and without glyph-only words such as a drop-down arrow.
    """
    if any(child is not node and actionable(child) for child in node.walk()):
        return None
    words = [word for word in text_of(node, TEXT_LIMIT).split() if any(ch.isalnum() for ch in word)]
    return " ".join(words) or None


def says_something(node: Node) -> bool:
    """A live region with words in it: an empty one (a status area waiting for news) is no line, nor one
    that only counts a list's options for screen readers (React Aria's "4 options available.")."""
    words = node.name or node.value or text_of(node)
    if words[:1].isdigit():  # read whole: a short read ends in "…", which no count matches
        words = node.name or node.value or text_of(node, 2_000)
    return bool(words) and not LIST_COUNT.fullmatch(" ".join(words.split()))


LIST_COUNT = re.compile(r"(\d+ (options?|results?|suggestions?|items?)( are)? available\b[^.]*\.? ?)+", re.I)


def says_nothing(node: Node) -> bool:
    """An empty, unnamed, inert node (an empty list item, a bare image): a line for nothing."""
    empty = (
        not node.name
        and node.value is None
        and not any(isinstance(child, Node) or child.strip() for child in node.children)
    )
    return empty and not actionable(node) and node.role not in CONTEXT


def repeats_only_child(node: Node) -> bool:
    """A wrapper whose one child says the same (`cell "A"` > `link "A"`): the child's line is enough."""
    if actionable(node) or not node.name or node.value is not None or len(node.children) != 1:
        return False
    child = node.children[0]
    return isinstance(child, Node) and child.name == node.name


def repeats_parent(node: Node) -> bool:
    """An option inside an option of the same name (a custom select's label inside its item)."""
    parent = node.parent
    return bool(node.name and parent and parent.role == node.role and parent.name == node.name)


def empty_item(node: Node) -> bool:
    """A focusable list item with nothing in it: a menu's separator, no control of its own."""
    return (
        node.role in ("listitem", "separator")
        and not node.name
        and not text_of(node)
        and not any(isinstance(child, Node) for child in node.children)
    )


def wraps_one_control(node: Node) -> bool:
    """A grid's cell with no name of its own around one named control, in a row of such cells only (a
    calendar's week of day buttons): the control's line says it; the cell's would be a second ref
    for the same thing. A row of data keeps its cells: its line and hints are made of them."""
    row = node.parent
    if node.role not in ("gridcell", "cell") or row is None or row.role != "row":
        return False
    return all(_one_named_control(cell) for cell in child_nodes(row))


def _one_named_control(cell: Node) -> bool:
    if cell.role not in ("gridcell", "cell") or cell.name:
        return False
    inner = [n for n in cell.walk()[1:] if actionable(n)]
    return len(inner) == 1 and bool(inner[0].name)


def named_by_children(node: Node) -> bool:
    """A control or heading without a name whose inside is plain text (`link` > `code`): that is its name."""
    return (
        not node.name
        and (actionable(node) or node.role == "heading")
        and node.role not in VALUE_ROLES
        and not any(actionable(n) for n in node.walk()[1:])
    )


def context_container(node: Node) -> bool:
    """Landmarks, dialogs and frames frame the controls of `-i`; an unnamed `main` says nothing."""
    if node.role == "main" and not node.name:
        return False
    return node.role in LANDMARKS or node.role in ("dialog", "alertdialog", "iframe")


def repeats_container(heading: Node) -> bool:
    """A heading that only repeats the name of the landmark it opens (`region "Cart"`, `heading "Cart"`)."""
    parent = heading.parent
    return bool(parent and parent.name and parent.name == heading.name and context_container(parent))


def labels_a_neighbour(children: list[Node | str], index: int) -> bool:
    """A label's text next to the field it names says the same thing twice: a text piece, or an
    element of text alone (Gradio's and Streamlit's `<span>Small</span>` beside their radio)."""
    text = _words_alone(children[index])
    for beside in children[max(index - 1, 0) : index + 2]:
        if isinstance(beside, Node) and (beside.name or beside.called) in (text,) and text:
            return True
    return False


def labels_beside(children: list[Node | str]) -> set[int]:
    """The indexes of the elements of `children` that are text alone saying a neighbour's name."""
    return {
        k for k, child in enumerate(children) if isinstance(child, Node) and labels_a_neighbour(children, k)
    }


def _words_alone(child: Node | str) -> str:
    """The words of a text piece, or of an element that holds text and nothing else; else ""."""
    if isinstance(child, str):
        return " ".join(child.split())
    if actionable(child) or child.name or any(isinstance(c, Node) for c in child.children):
        return ""
    return " ".join(" ".join([*(c for c in child.children if isinstance(c, str)), child.value or ""]).split())


def between(inner: Node, outer: Node) -> list[Node]:
    """The nodes above `inner` up to, not including, `outer`."""
    out = []
    for ancestor in inner.ancestors():
        if ancestor is outer:
            break
        out.append(ancestor)
    return out


def child_nodes(node: Node) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node)]


def shown_states(node: Node) -> list[str]:
    out = []
    for key in _SHOWN_STATES:
        value = node.attrs.get(key)
        if value is not None:
            out.append(f"[{key}]" if value == "true" else f"[{key}={value}]")
    if "invalid" in node.marks and "invalid" not in node.attrs:
        out.append("[invalid]")
    if "expanded" not in node.attrs:
        out.extend(shown for mark, shown in _MARKED_STATES if mark in node.marks)
    elif "required" in node.marks:
        out.append("[required]")
    if "selected" not in node.attrs:
        out.extend(shown for mark, shown in _CHOSEN_STATES if mark in node.marks)
    if "password" in node.marks and "pass" not in node.name.lower():  # "PIN", or no name at all
        out.append("[password]")
    return out


def form_name(node: Node, context: list[str]) -> str | None:
    """`[name=__login_name]` for a field nothing names but its form name (two bare fields under
    "Login"), unless the words beside it say as much ("Last login" beside `lastlogin`), or they
    say something and the name is a long generated one (Trac's `action_create_and_assign_reassign_owner`
    beside "assign to")."""
    if "named" not in node.marks or not node.note or node.name:
        return None
    if context and len(node.note) > FORM_NAME_LIMIT:
        return None
    said = "".join(ch for ch in " ".join(context).lower() if ch.isalnum())
    own = "".join(ch for ch in node.note.lower() if ch.isalnum())
    return None if own and own in said else f"[name={node.note}]"
