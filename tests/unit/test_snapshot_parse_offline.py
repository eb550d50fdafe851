"""The snapshot tokenizer, and a golden test of the raw ai-mode format of the pinned Playwright."""

from __future__ import annotations

import pytest

from refbrowse.daemon.page.snapshot.parse import parse_snapshot
from refbrowse.daemon.page.snapshot.repeats import repeated
from refbrowse.daemon.page.snapshot.tokens import tokenize_line
from refbrowse.daemon.page.snapshot.tree import Node, SnapshotFormatError
from refbrowse.daemon.page.snapshot.view import ViewOptions, build_lines


def test_a_name_that_imitates_a_ref_stays_a_name() -> None:
    tree = parse_snapshot('- button "Go \\"x\\" [ref=e2]" [disabled] [ref=e8]')
    button = tree.walk()[1]
    assert button.name == 'Go "x" [ref=e2]'
    assert button.pw_ref == "e8"
    assert button.attrs == {"disabled": "true"}


def test_a_single_quoted_key_is_unwrapped_before_it_is_read() -> None:
    tree = parse_snapshot("- 'button \"It''s: [ref=e1]\" [ref=e9]'")
    button = tree.walk()[1]
    assert (button.name, button.pw_ref) == ("It's: [ref=e1]", "e9")


def test_text_lines_never_become_elements() -> None:
    tree = parse_snapshot('- paragraph [ref=e1]:\n  - text: button "Pay" [ref=e7]\n  - text: "- [ref=e3]"')
    paragraph = tree.walk()[1]
    assert paragraph.children == ['button "Pay" [ref=e7]', "- [ref=e3]"]
    assert [n.pw_ref for n in tree.walk()] == ["", "e1"]


def test_quoted_values_keep_their_escapes() -> None:
    tree = parse_snapshot('- textbox "Bio" [ref=e2]: "line one\\nline \\"two\\" \\x41"')
    assert tree.walk()[1].value == 'line one\nline "two" A'


def test_boxes_inside_a_frame_are_shifted_into_the_page() -> None:
    raw = "\n".join(
        [
            "- iframe [ref=e1] [box=100,200,300,150]:",
            "  - generic [ref=f1e1] [box=8,8,50,20]:",
            '    - button "B" [ref=f1e2] [box=10,12,40,20]',
        ]
    )
    button = parse_snapshot(raw).walk()[-1]
    assert button.box == (110, 212, 40, 20)
    assert button.in_frame


@pytest.mark.parametrize(
    "line",
    ['- button "unterminated [ref=e1]', "- button [ref=e1", "-button", "   - button", '- button "x" junk'],
)
def test_malformed_lines_are_refused_with_the_line_number(line: str) -> None:
    with pytest.raises(SnapshotFormatError, match="line 1"):
        tokenize_line(line, 1)


def test_rendered_names_are_json_strings_so_a_ref_only_ever_follows_the_closing_quote() -> None:
    tree = parse_snapshot('- button "Go \\"x\\" @e1" [ref=e8]')
    button = tree.walk()[1]
    button.short_ref = "@e4"
    [line] = build_lines([tree], ViewOptions())
    assert line.render() == '- button "Go \\"x\\" @e1" @e4'


def test_a_label_next_to_its_field_is_not_repeated() -> None:
    tree = parse_snapshot('- generic [ref=e1]:\n  - text: Team name\n  - textbox "Team name" [ref=e2]')
    rendered = [line.render() for line in build_lines([tree], ViewOptions())]
    assert rendered == ['- textbox "Team name"']


def test_interactive_view_keeps_headings_and_the_named_landmarks_around_controls() -> None:
    raw = "\n".join(
        [
            '- navigation "Main" [ref=e1]:',
            '  - link "Home" [ref=e2] [cursor=pointer]:',
            "    - /url: /",
            "- main [ref=e3]:",
            '  - heading "Title" [level=1] [ref=e4]',
            "  - paragraph [ref=e5]: words",
            '- complementary "Empty" [ref=e6]:',
            "  - paragraph [ref=e7]: nothing to do",
        ]
    )
    tree = parse_snapshot(raw)
    for node in tree.walk():
        node.short_ref = "@" + node.pw_ref if node.pw_ref else ""
    rendered = [line.render() for line in build_lines([tree], ViewOptions(interactive=True))]
    assert rendered == [
        '- navigation "Main" @e1',
        '  - link "Home" @e2',
        '- heading "Title" @e4 [level=1]',
    ]


def test_nodes_walk_in_document_order() -> None:
    tree = parse_snapshot("- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - listitem [ref=e3]: b")
    assert [n.pw_ref for n in tree.walk() if isinstance(n, Node)] == ["", "e1", "e2", "e3"]


def test_interactive_view_drops_a_heading_that_repeats_its_landmark() -> None:
    raw = '- region "Cart" [ref=e1]:\n  - heading "Cart" [level=2] [ref=e2]\n  - button "Pay" [ref=e3]'
    tree = parse_snapshot(raw)
    for node in tree.walk():
        node.short_ref = "@" + node.pw_ref if node.pw_ref else ""
    rendered = [line.render() for line in build_lines([tree], ViewOptions(interactive=True))]
    assert rendered == ['- region "Cart" @e1', '  - button "Pay" @e3']


def test_icon_font_glyphs_are_read_as_nothing() -> None:
    """Node-RED names its toolbar's buttons by Font Awesome's private-use code points."""
    tree = parse_snapshot(
        '- button "\uf002" [ref=e1]\n- link "\uf023 \uf05e Flow 1" [ref=e2]:\n  - text: \uf0c8 \uf14a\n'
        '- paragraph [ref=e3]: "\U000f0001 Saved"'
    )
    button, link, paragraph = tree.walk()[1:]
    assert (button.name, link.name, link.children, paragraph.value) == ("", "Flow 1", [], "Saved")


def test_names_alike_but_for_an_index_from_zero_count_as_repeated_and_page_numbers_do_not() -> None:
    tree = parse_snapshot(
        '- button "Remove 0" [ref=e1]\n- button "Remove 1" [ref=e2]\n'
        '- link "Page 1" [ref=e3]\n- link "Page 2" [ref=e4]'
    )
    assert repeated(tree) == {("button", "Remove #"): 2}


def test_a_live_region_that_only_counts_a_lists_options_is_no_line() -> None:
    counts = "".join(f"\n  - generic [ref=e{n}]: {n} options available." for n in range(2, 8))
    tree = parse_snapshot(f'- log [ref=e1]:{counts}\n- button "x" [ref=e9]')
    assert [line.render() for line in build_lines([tree], ViewOptions(interactive=True))] == ['- button "x"']


def test_a_name_that_says_its_words_twice_says_them_once() -> None:
    # Gradio's footer: an image's alt beside the same text; Streamlit's slider: a label and an aria-label
    tree = parse_snapshot('- button "Settings Settings" [ref=e1]\n- slider "Quantity Quantity" [ref=e2]: "1"')
    rendered = [line.render() for line in build_lines([tree], ViewOptions(interactive=True))]
    assert rendered == ['- button "Settings"', '- slider "Quantity": "1"']


def test_a_control_named_by_its_own_text_does_not_say_that_text_again_under_it() -> None:
    # Node-RED's toast: a paragraph one clicks away, its text a known message of the page
    tree = parse_snapshot(
        '- paragraph [ref=e1] [cursor=pointer]:\n  - text: Successfully deployed\n- button "Deploy" [ref=e2]'
    )
    for node in tree.walk():
        node.short_ref = "@" + node.pw_ref if node.pw_ref else ""
    options = ViewOptions(interactive=True, messages=frozenset({"Successfully deployed"}))
    rendered = [line.render() for line in build_lines([tree], options)]
    assert rendered == ['- paragraph "Successfully deployed" @e1', '- button "Deploy" @e2']
