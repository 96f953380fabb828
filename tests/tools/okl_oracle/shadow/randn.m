function varargout = randn (varargin)
  % perceptron-lab okl oracle: INJECTION. FouGD.m draws its frequencies once, as
  % u = (1/sigma) * randn(size(X,2), Budget*D). When called from FouGD this returns an m x n matrix
  % filled column-major from the pre-drawn standard normals OKL_DRAWS.normals (read by the driver
  % from the fixture's draw file): entry (j, i) = normals((i-1)*m + j). Every other caller gets the
  % builtin randn. Running out of values is an error.
  global OKL_DRAWS OKL_LOG
  if (! strcmp (okl_caller (), 'FouGD'))
    if (nargout == 0 && numel (varargin) > 0 && ischar (varargin{1}))
      builtin ('randn', varargin{:});     % randn ('state', s) and the like: no value
    else
      varargout{1} = builtin ('randn', varargin{:});
    end
    return;
  end
  if (numel (varargin) != 2)
    error ('okl shadow randn: FouGD was expected to call randn(m, n)');
  end
  m = varargin{1}; n = varargin{2};
  if (m * n > numel (OKL_DRAWS.normals))
    error ('okl shadow randn: %d normals requested, %d pre-drawn', m * n, numel (OKL_DRAWS.normals));
  end
  varargout{1} = reshape (OKL_DRAWS.normals(1:m * n), m, n);
  OKL_LOG.randn_calls(end + 1, :) = [m, n];
end
