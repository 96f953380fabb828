function p = randperm (n, m)
  % perceptron-lab okl oracle: INJECTION. BOGD.m draws its removal as perm_t = randperm(B);
  % idx = perm_t(1). When called from BOGD this returns a permutation of 1:n whose first element
  % is the next pre-drawn position from OKL_DRAWS.perm (1-based, in 1..n, read by the driver from
  % the fixture's draw file), followed by the other positions in increasing order (BOGD reads
  % only the first). Every other caller gets the builtin randperm. Running out of pre-drawn values
  % is an error (no silent fallback to Octave's generator).
  global OKL_DRAWS OKL_LOG
  if (! strcmp (okl_caller (), 'BOGD'))
    if (nargin < 2)
      p = builtin ('randperm', n);
    else
      p = builtin ('randperm', n, m);
    end
    return;
  end
  if (nargin != 1)
    error ('okl shadow randperm: BOGD was expected to call randperm(B)');
  end
  k = OKL_DRAWS.perm_next;
  if (k > numel (OKL_DRAWS.perm))
    error ('okl shadow randperm: pre-drawn removal positions exhausted');
  end
  idx = OKL_DRAWS.perm(k);
  if (idx < 1 || idx > n || idx != fix (idx))
    error ('okl shadow randperm: pre-drawn position %g not in 1..%d', idx, n);
  end
  OKL_DRAWS.perm_next = k + 1;
  p = [idx, setdiff(1:n, idx)];
  OKL_LOG.perm_calls(end + 1, :) = [evalin('caller', 't'), n, idx];
end
