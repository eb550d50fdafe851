limit => {
  const title = document.title;
  if (typeof title !== 'string') return '';
  const cut = title.length > limit ? title.slice(0, limit) + '…' : title;
  return typeof cut === 'string' && cut.length <= limit + 1 ? cut : '';
}
