"""A small task tracker made of NiceGUI's own elements: input, select, dialog, notification."""

import json
import os
import sys

from nicegui import ui

STORE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")


def load() -> list:
    try:
        with open(STORE) as f:
            return json.load(f)
    except OSError:
        return []


def save(task: dict) -> None:
    tasks = [*load(), task]
    with open(STORE, "w") as f:
        json.dump(tasks, f)


@ui.page("/")
def index() -> None:
    ui.label("New task").classes("text-h5")
    title = ui.input("Title")
    priority = ui.select(["Low", "Normal", "High", "Urgent"], label="Priority", value="Normal")
    with ui.dialog() as dialog, ui.card():
        question = ui.label()
        with ui.row():
            ui.button("Cancel", on_click=dialog.close)
            ui.button("Confirm", on_click=lambda: confirm())

    def ask() -> None:
        question.text = f"Save the task {title.value!r} with priority {priority.value}?"
        dialog.open()

    def confirm() -> None:
        save({"title": title.value, "priority": priority.value})
        dialog.close()
        ui.notify(f"Saved {title.value}", type="positive")

    ui.button("Save", on_click=ask)


ui.run(host="127.0.0.1", port=int(sys.argv[1]), show=False, reload=False)
