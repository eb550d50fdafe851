// uses: passage_block
(id) => {
  const el = document.getElementById(id) || document.getElementsByName(id)[0];
  return el ? passage_block(el) : null;
}
