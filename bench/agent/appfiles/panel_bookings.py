"""A booking form made of Panel's own widgets (Bokeh models rendered in shadow DOM)."""

import json
import os

import panel as pn

STORE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bookings.json")

guest = pn.widgets.TextInput(name="Guest name", placeholder="Full name")
room = pn.widgets.Select(name="Room", options=["Single", "Double", "Suite"], value="Single")
nights = pn.widgets.IntInput(name="Nights", value=1, start=1, end=30)
breakfast = pn.widgets.Checkbox(name="Breakfast included")
book = pn.widgets.Button(name="Book", button_type="primary")
status = pn.pane.Alert("No booking yet.", alert_type="secondary")


def on_book(_event: object) -> None:
    booking = {"guest": guest.value, "room": room.value, "nights": nights.value, "breakfast": breakfast.value}
    try:
        with open(STORE) as f:
            saved = json.load(f)
    except OSError:
        saved = []
    with open(STORE, "w") as f:
        json.dump([*saved, booking], f)
    status.object = f"Booked a {room.value} room for {guest.value}."
    status.alert_type = "success"


book.on_click(on_book)
pn.Column("# Book a room", guest, room, nights, breakfast, book, status).servable(title="Bookings")
