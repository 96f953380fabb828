function s = okl_fmt (v)
  % Numbers as %.17g (round-trip exact), space-separated; '' for an empty vector.
  if (isempty (v))
    s = '';
  else
    s = strjoin (arrayfun (@(z) sprintf ('%.17g', z), v(:)', 'UniformOutput', false), ' ');
  end
end
