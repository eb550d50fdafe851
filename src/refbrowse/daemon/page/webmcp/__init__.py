"""The page's own tools for agents (WebMCP): what each frame of a tab offers, and calls to them.

A page registers tools with `document.modelContext.registerTool` or declares
them on a form (`<form toolname=…>`); Chromium reports them over the DevTools
`WebMCP` domain of the page's target, and of each out-of-process frame's.
`watch` keeps each tab's list from those events (`TabTools`, in the tab's
memory), `model` bounds what a page may hand us, `arguments` checks a call's
input against a tool's schema, `listing` words the list and a call's result.
"""
