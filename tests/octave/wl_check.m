function wl_check(name, ok, detail)
% WL_CHECK  One test check: prints "PASS octave_mex_NAME", or "FAIL octave_mex_NAME: DETAIL"
% and counts it in the global NFAIL that the test functions return.
  global NFAIL
  if ok
    printf('PASS octave_mex_%s\n', name);
  else
    printf('FAIL octave_mex_%s: %s\n', name, detail);
    NFAIL = NFAIL + 1;
  end
end
