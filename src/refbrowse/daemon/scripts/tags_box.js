// Whether a field is the typing part of a box of tags or chips (Select2's tags, antd's tags mode, a
// token input): such a box adds what is typed on Enter, where a form's field would submit the form.
(e) => !!e.closest('[class*=tags], [class*=tag-], [class*=-tag], [class*=chip], [class*=token], '
  + '[class*=select-multiple], [class*=selection--multiple], [class*=multiselect], [class*=multi-select]')
