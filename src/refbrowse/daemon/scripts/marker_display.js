([tags, display]) => {
  const root = document.documentElement;
  const hosts = root ? tags.flatMap(tag => Array.from(root.querySelectorAll(`:scope > ${tag}`))) : [];
  for (const host of hosts) host.style.setProperty('display', display, 'important');
  return hosts.length > 0;
}
