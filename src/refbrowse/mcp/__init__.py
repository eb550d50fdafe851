"""refbrowse as an MCP server: the registry's commands as tools, answered by the workspace's daemon."""
