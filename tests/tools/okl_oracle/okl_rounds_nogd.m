function [cols, rows, stats, map] = okl_rounds_nogd (R, X, Y, opt, T)
  % Per-round records of a NysGD run, checked against the rule as RULES.md states it. The
  % Nystrom-phase check is basis-free: with P = V_k V_k' and Q = V_k L_k^-1 V_k' from our own
  % eig of the supports' kernel matrix, the effective coefficients beta = w*M over the supports
  % must be alpha*P + eta*y*k'*Q at the switch and beta + eta*y*k'*Q after it.
  cols = {'t', 'id', 'y', 'f', 'mistake', 'update', 'loss_update', 'phase', 'support_size', 'sv_ids', ...
          'beta', 'w'};
  rows = cell (T, 1);
  B = opt.Budget; eta = opt.eta_nogd; k = opt.k * B;
  stats = struct ('switch_round', NaN, 'steps', 0, 'mistakes', 0, 'max_err', 0);
  map = [];
  Q = [];
  for t = 1:T
    pre = R.snaps{t}; post = R.snaps{t + 1};
    id = pre.id; y = Y(id); f = pre.f;
    phase_pre = pre.flag;
    if (isempty (pre.alpha))
      kt = []; fe = 0; beta_pre = [];
    else
      kt = okl_kern (X, pre.SV, id, opt.sigma);
      if (phase_pre == 0), beta_pre = pre.alpha; else beta_pre = pre.w * pre.M; end
      fe = beta_pre * kt;
    end
    e = okl_close (sprintf ('NysGD t=%d f', t), f, fe, 1e-9);
    S = pre.SV; kind = 'none';
    if (y * f < 1)                          % NysGD.m line 63
      if (phase_pre == 0 && numel (pre.alpha) < B)
        beta = [pre.alpha, eta * y]; S = [pre.SV, id]; kind = 'add';
      elseif (phase_pre == 0)
        K = okl_kern (X, pre.SV, pre.SV, opt.sigma);
        [V, L] = eig ((K + K') / 2);
        [l, order] = sort (diag (L), 'descend');
        V = V(:, order(1:k)); l = l(1:k);
        P = V * V'; Q = V * diag (1 ./ l) * V';
        beta = pre.alpha * P + eta * y * kt' * Q; kind = 'switch';
        stats.switch_round = t;
        map = struct ('t', t, 'SV', post.SV, 'eigenvalues', diag (post.D)', 'V', post.V, 'M', post.M, ...
                      'our_eigenvalues', l');
        okl_close (sprintf ('NysGD t=%d eigenvalues', t), sort (diag (post.D), 'descend')', l', 1e-9);
      else
        beta = beta_pre + eta * y * kt' * Q; kind = 'step';
      end
      stats.steps += 1;
    else
      beta = beta_pre;
    end
    if (post.flag == 0), beta_post = post.alpha; else beta_post = post.w * post.M; end
    if (! isequal (post.SV, S)), error ('NysGD t=%d: support ids %s, expected %s', t, mat2str (post.SV), mat2str (S)); end
    e = max (e, okl_close (sprintf ('NysGD t=%d beta', t), beta_post, beta, 1e-9));
    stats.max_err = max (stats.max_err, e);
    mistake = post.err_count - pre.err_count;
    stats.mistakes += mistake;
    if (post.flag == 1), w = post.w; else w = []; end
    rows{t} = {sprintf('%d', t), sprintf('%d', id), sprintf('%d', y), okl_fmt(f), sprintf('%d', mistake), ...
               kind, sprintf('%d', ! strcmp (kind, 'none')), sprintf('%d', post.flag), sprintf('%d', numel (post.SV)), ...
               okl_fmt(post.SV), okl_fmt(beta_post), okl_fmt(w)};
  end
end
