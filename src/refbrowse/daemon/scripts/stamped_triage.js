// The triage with the probe's stamp (null without a probe) and whether the document is blank.
// uses: triage, blank_document
(key) => {
  // The probe's stamp is read before the facts, in the same script: no mutation can fall between.
  const stamp = window[key] ? window[key].stamp() : null;
  return {stamp, facts: triage(), blank: blank_document()};
}
