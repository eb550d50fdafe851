"""What each accessibility role means to an agent: can it be acted on, does it give context.

Which nodes get a ref, which survive `-i`, and which are mere wrappers that
the text leaves out are all decided from these sets and the node's own flags.
"""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.tree import Node

INTERACTIVE = frozenset(
    (  # noqa: SIM905 - a word list reads better than one quoted word a line
        "button link textbox searchbox checkbox radio combobox listbox menuitem menuitemcheckbox "
        "menuitemradio tab switch slider spinbutton treeitem gridcell option"
    ).split()
)
LANDMARKS = frozenset(
    "banner navigation main complementary contentinfo region form search".split()  # noqa: SIM905
)
DIALOGS = frozenset(("dialog", "alertdialog"))
# Live regions an agent must read even in `-i`: what an action said.
MESSAGES = frozenset(("alert", "status", "log"))
_TOGGLES = frozenset(("popup", "toggle"))  # menu triggers and <summary>, whatever their role
# Roles that real apps make into controls with a tabindex alone (file lists, grids).
_FOCUSABLE_ITEMS = frozenset(("row", "listitem", "cell", "treeitem", "option", "article", "img"))
CONTEXT = LANDMARKS | DIALOGS | {"heading"}
# Roles that get a ref though they are not acted on: an agent scopes to them or reads them.
REFERABLE = INTERACTIVE | CONTEXT | frozenset(("img", "iframe", "table", "list", "article", "alert", "term"))
# Wrappers the full text leaves out when they carry no name: their children take their place.
WRAPPERS = frozenset(("generic", "none", "presentation", "paragraph", "strong", "emphasis", "time"))
VALUE_ROLES = frozenset(("textbox", "searchbox", "combobox", "spinbutton", "slider", "slider handle"))


def pointer_target(node: Node) -> bool:
    """A node the page made clickable (cursor: pointer) that no clickable ancestor explains.

    A field's clickable frame (Quasar's and Material's select and text field
    wrap the one field with its label and icons) is not a target of its own:
    the field inside is. Nor is a control's clickable label that says only
    the control's name (Streamlit's and Gradio's checkboxes): its line would
    repeat the control's.
    """
    if not node.pointer or node.role in INTERACTIVE:
        return False
    if any(a.pointer or a.role in INTERACTIVE for a in node.ancestors()):
        return False
    inside = [n for n in node.walk()[1:] if n.role in INTERACTIVE]
    if len(inside) != 1:
        return True
    control = inside[0]
    beside = _text_beside(node, control)
    return control.role not in VALUE_ROLES and not (control.name and beside in ("", _flat(control.name)))


def _text_beside(node: Node, control: Node) -> str:
    """The text under `node` outside `control`'s subtree, flattened."""
    parts = [
        child if isinstance(child, str) else (child.name or _text_beside(child, control))
        for child in node.children
        if child is not control
    ]
    return _flat(" ".join(parts))


def _flat(text: str) -> str:
    return " ".join(text.split())


def actionable(node: Node) -> bool:
    if not node.pw_ref:
        return bool(node.reached)
    if node.role in INTERACTIVE or pointer_target(node) or node.marks & _TOGGLES:
        return True
    return "focusable" in node.marks and node.role in _FOCUSABLE_ITEMS and not _wraps_one_control(node)


def _wraps_one_control(node: Node) -> bool:
    """A grid's cell that holds one control and no text of its own (a row's "Select row" box): the
    control is what to act on, and the cell's ref would say the same line twice."""
    if node.role not in ("cell", "gridcell"):
        return False
    everything = node.walk()  # the cell first: its own text counts too
    controls = [n for n in everything if n.role in INTERACTIVE]
    said = [
        n
        for n in everything
        if n.role not in INTERACTIVE and (n.value or any(isinstance(c, str) for c in n.children))
    ]
    return len(controls) == 1 and not said


def referable(node: Node) -> bool:
    return bool(node.pw_ref) and (node.role in REFERABLE or actionable(node))


def text_of(node: Node, limit: int = 80, controls: bool = True) -> str:
    """The visible text under a node, for nodes whose accessible name is empty; without the names
    of the controls inside when not `controls` (a chat log's "Copy message" buttons)."""
    parts: list[str] = []
    if node.value:
        parts.append(node.value)
    length = len(node.value) if node.value else 0  # of the parts so far
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
            length += len(child)
        elif controls or child.role not in INTERACTIVE:
            parts.append(child.name or text_of(child, limit, controls))
            length += len(parts[-1])
        if length > limit:
            break
    return shorten(" ".join(filter(None, parts)), limit)


def title_of(node: Node, limit: int = 80) -> str | None:
    """The words a node shows before its first control (a tray's or a card's title, "Edit inject
    node"), or None when it holds no control: a panel is not named by its buttons' words."""
    parts: list[str] = []

    def before_control(at: Node) -> bool:  # True once a control is met
        for child in at.children:
            if isinstance(child, str):
                parts.append(child)
            elif actionable(child):
                return True
            elif child.name and not any(actionable(n) for n in child.walk()):
                parts.append(child.name)
            elif before_control(child):
                return True
        return False

    return shorten(" ".join(p for p in parts if p.strip()), limit) if before_control(node) else None


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def drop_unspoken(tree: Node) -> None:
    """Take out what a screen reader skips and the text would say: aria-hidden leaves, not acted on.

    Playwright's ai snapshot keeps visible aria-hidden elements, marked `[aria-hidden]`,
    so an agent can reach a control a page hid by mistake. A leaf of them is a glyph
    (an icon font's ligature: Quasar's notification reads `img: check_circle`) or a
    decorative mark, and its text would join the names and messages around it. A
    hidden subtree with elements inside (an app a modal dialog hides) stays.
    """
    for node in tree.walk():
        if any(isinstance(child, Node) and "aria-hidden" in child.attrs for child in node.children):
            node.children = [child for child in node.children if not _unspoken_leaf(child)]


def drop_hidden_copies(tree: Node) -> None:
    """Take out an aria-hidden copy of controls the page shows elsewhere (Gradio measures its tab
    labels in a hidden copy of the tab buttons): each of its controls, unnamed, says only what a
    control outside it is named, and an agent would see every control twice."""
    hidden = [node for node in tree.walk() if "aria-hidden" in node.attrs]
    if not hidden:
        return
    inside = {id(n) for node in hidden for n in node.walk()}
    shown = {_flat(n.name) for n in tree.walk() if id(n) not in inside and actionable(n) and n.name}
    for node in hidden:
        controls = [n for n in node.walk() if actionable(n)]
        if node.parent is None or not controls:
            continue
        if all(not c.name and text_of(c, 200) in shown for c in controls):
            node.parent.children = [child for child in node.parent.children if child is not node]


def _unspoken_leaf(child: Node | str) -> bool:
    if not isinstance(child, Node) or "aria-hidden" not in child.attrs or actionable(child):
        return False
    return not any(isinstance(grandchild, Node) for grandchild in child.children)


def once(text: str) -> str:
    """`Nights Nights` → `Nights`: words read from both a name and its text (a label and the aria-label,
    an image's alt and the text beside it) are said once."""
    words = text.split()
    half = len(words) // 2
    return " ".join(words[:half]) if half and len(words) % 2 == 0 and words[:half] == words[half:] else text
