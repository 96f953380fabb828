function err = okl_close (what, got, want, tol)
  % Relative difference of two arrays (scaled by max(1, max |want|)); an error above tol.
  if (! isequal (size (got), size (want)))
    error ('okl check %s: size %s, expected %s', what, mat2str (size (got)), mat2str (size (want)));
  end
  if (isempty (got))
    err = 0;
    return;
  end
  err = max (abs (got(:) - want(:))) / max (1, max (abs (want(:))));
  if (! (err <= tol))
    error ('okl check %s: relative difference %g > %g\n got  %s\n want %s', what, err, tol, mat2str (got, 17), mat2str (want, 17));
  end
end
