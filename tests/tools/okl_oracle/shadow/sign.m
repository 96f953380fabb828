function s = sign (x)
  % perceptron-lab okl oracle: OBSERVATION hook, not an injection. Returns the builtin sign(x)
  % unchanged. When called from one of the authors' learners (BOGD, BPAs, FouGD, NysGD: each
  % calls sign(f_t) exactly once per round, before its update), it also snapshots f_t and the
  % learner's workspace variables (the state after round t-1) into the global OKL_LOG.
  global OKL_LOG
  s = builtin ('sign', x);
  caller = okl_caller ();
  if (! any (strcmp (caller, {'BOGD', 'BPAs', 'FouGD', 'NysGD'})) || ! isstruct (OKL_LOG))
    return;
  end
  snap = struct ('f', x);
  names = {'t', 'id', 'alpha', 'SV', 'w', 'u', 'M', 'V', 'D', 'k', 'flag', 'err_count'};
  for i = 1:numel (names)
    if (evalin ('caller', sprintf ('exist ("%s", "var")', names{i})))
      snap.(names{i}) = evalin ('caller', names{i});
    end
  end
  OKL_LOG.snaps{end + 1} = snap;
end
