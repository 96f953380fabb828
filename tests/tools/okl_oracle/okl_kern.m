function K = okl_kern (X, a, b, sigma)
  % Our own statement of the authors' kernel (binary/comp_K.m): K(i,j) = exp(-||X(a(i),:) -
  % X(b(j),:)||^2 / (2 sigma^2)), computed from the differences (they expand the square), so the
  % two agree to rounding, not bit for bit.
  K = zeros (numel (a), numel (b));
  for i = 1:numel (a)
    for j = 1:numel (b)
      d = X(a(i), :) - X(b(j), :);
      K(i, j) = exp (-(d * d') / (2 * sigma ^ 2));
    end
  end
end
