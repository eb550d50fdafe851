// uses: triage
(key) => {
  // The probe's stamp is read before the facts, in the same script: no mutation can fall between.
  const stamp = window[key] ? window[key].stamp() : null;
  return {stamp, facts: triage()};
}
