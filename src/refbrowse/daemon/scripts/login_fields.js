// The fields of the page's login form, by the triage's rule for one (a visible password field that
// is not a new password, with one to three user fields in its form), or the step a form is at: a
// lone user field with Next (the password comes after), or a one-time code field. Element handles,
// so that nothing is marked in the page; the main document only.
() => {
  const visible = e => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const words = e => [e.name, e.id, e.getAttribute('aria-label'), e.placeholder, e.autocomplete,
    ...(e.labels ? Array.from(e.labels, l => l.textContent) : [])].join(' ');
  const inputsIn = root => Array.from(root.querySelectorAll('input')).filter(visible);
  const OTP = /one-time|otp|totp|2fa|mfa|verification|authenticat|security code|\bcode\b/i;
  const isOtp = e => e.autocomplete === 'one-time-code' || OTP.test(words(e));
  const USER = /user|e-?mail|login|identifier|account|phone/i;
  const isUserType = e => ['text', 'email', 'tel', ''].includes(e.type) && !isOtp(e);
  const SUBMIT = /log ?in|sign ?in|next|continue|submit|verify|confirm|anmelden|weiter|connexion/i;
  const label = b => (b.innerText || b.value || b.getAttribute('aria-label') || '').trim();
  const submitIn = root => {
    const buttons = Array.from(root.querySelectorAll('button, input[type=submit], input[type=image], [role=button]'))
      .filter(visible).filter(b => !b.disabled);
    return buttons.find(b => b.type === 'submit' && SUBMIT.test(label(b)))
      || buttons.find(b => SUBMIT.test(label(b))) || buttons.find(b => b.type === 'submit') || null;
  };
  const passwords = inputsIn(document).filter(e => e.type === 'password');
  const password = passwords.find(p => p.autocomplete !== 'new-password');
  if (password) {
    const scope = password.closest('form') || document;
    const secret = inputsIn(scope).filter(e => e.type === 'password');
    const users = inputsIn(scope).filter(isUserType);
    if (secret.length !== 1 || users.length > 3) return {step: 'unclear', count: secret.length};
    const before = users.filter(u => u.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
    const user = users.find(u => /username|email/.test(u.autocomplete)) || before[before.length - 1]
      || users[0] || null;
    return {step: 'password', user, password, submit: submitIn(scope)};
  }
  const otp = inputsIn(document).find(e => isOtp(e) && !['checkbox', 'radio', 'hidden'].includes(e.type));
  if (otp) return {step: 'otp', otp, submit: submitIn(otp.closest('form') || document)};
  const users = inputsIn(document).filter(isUserType);
  const user = users.find(u => /username|email/.test(u.autocomplete)) || users.find(u => u.type === 'email')
    || users.find(u => USER.test(words(u))) || (users.length === 1 ? users[0] : null);
  if (user) return {step: 'user', user, submit: submitIn(user.closest('form') || document)};
  return {step: 'none'};
}
