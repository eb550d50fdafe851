// A declarative page tool's form, filled by the browser for the call, submitted as its submit
// button would (validation and the page's own submit handlers included). Called bound to the form.
(function submitToolForm() {
  if (typeof this.requestSubmit === 'function') this.requestSubmit();
  else this.submit();
})
