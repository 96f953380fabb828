function [X, Y] = okl_data (kind, T)
  % The oracle's input: T rows, 3 features, labels in {-1,+1}; made by formula (no RNG), every
  % value a multiple of 1/64 (exact in binary, so a reader of the CSV gets the same doubles and a
  % point's squared distance to itself is exactly 0). Feature 3 is 0 on every 4th row (sparse-ish).
  %   kind 'dense': as below.   kind 'dup': row 2 is a copy of row 1 (x and y), the rest as 'dense'.
  t = (1:T)';
  q = @(v) round (64 * v) / 64;
  x1 = q (sin (0.9 * t + 0.3));
  x2 = q (cos (1.7 * t + 0.1));
  x3 = q (0.8 * sin (0.45 * t + 1.1));
  x3(mod (t, 4) == 0) = 0;
  X = [x1, x2, x3];
  Y = ones (T, 1);
  Y(x1 .^ 2 + x2 .^ 2 + 0.5 * x3 < 0.8) = -1;   % a non-linear (circular) concept ...
  flip = mod (t, 13) == 0;                        % ... with every 13th label flipped (noise)
  Y(flip) = -Y(flip);
  if (strcmp (kind, 'dup'))
    X(2, :) = X(1, :);
    Y(2) = Y(1);
  elseif (! strcmp (kind, 'dense'))
    error ('okl_data: unknown kind %s', kind);
  end
end
