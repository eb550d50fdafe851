// What acting on this element would do, for the consent gate: its words and role, the form it
// would submit (action and method; `enter`: pressing Enter in a field submits its form), or the
// link it would follow and whether that link downloads.
(el, enter) => {
  const flat = s => String(s || '').replace(/\s+/g, ' ').trim();
  const name = flat(el.getAttribute('aria-label') || el.innerText || el.value || el.title || el.alt).slice(0, 120);
  const link = el.closest('a[href]');
  const submitter = el.closest('button, input[type=submit], input[type=image]');
  let form = null, method = '', action = '';
  if (submitter && submitter.form && ['submit', 'image'].includes(submitter.type)) {
    form = submitter.form;
    method = submitter.getAttribute('formmethod') || form.getAttribute('method') || 'get';
    action = submitter.getAttribute('formaction') ? submitter.formAction : form.action;
  } else if (enter && el.form && el.tagName === 'INPUT') {
    form = el.form;
    method = form.getAttribute('method') || 'get';
    action = form.action;
  }
  let said = name;
  if (form && !said) {  // Enter in a field: the words of the button it stands for
    const button = form.querySelector('button:not([type=button]):not([type=reset]), input[type=submit]');
    said = button ? flat(button.innerText || button.value).slice(0, 120) : '';
  }
  return {
    name: said, role: el.getAttribute('role') || el.tagName.toLowerCase(),
    method: form ? method.toUpperCase() : '', action,
    href: !form && link ? link.href : '', download: !!(link && link.hasAttribute('download')),
  };
}
