// uses: hit_test
(el, key) => hit_test(el, true, key)
