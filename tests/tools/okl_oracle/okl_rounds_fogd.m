function [cols, rows, stats] = okl_rounds_fogd (R, X, Y, opt, T)
  % Per-round records of a FouGD run, checked against the rule as RULES.md states it.
  cols = {'t', 'id', 'y', 'f', 'mistake', 'update', 'loss_update', 'their_sv_count', 'w'};
  rows = cell (T, 1);
  eta = opt.eta_fou;
  u = R.snaps{1}.u;
  stats = struct ('updates', 0, 'mistakes', 0, 'max_err', 0);
  for t = 1:T
    pre = R.snaps{t}; post = R.snaps{t + 1};
    if (! isequal (pre.u, u)), error ('FouGD t=%d: frequencies changed', t); end
    id = pre.id; y = Y(id); f = pre.f;
    x = X(id, :);
    nx = [cos(u' * x'); sin(u' * x')];
    e = okl_close (sprintf ('FouGD t=%d f', t), f, pre.w * nx, 1e-12);
    if (y * f < 1)                          % FouGD.m line 57
      w = pre.w + eta * y * nx'; kind = 'step'; stats.updates += 1;
    else
      w = pre.w; kind = 'none';
    end
    e = max (e, okl_close (sprintf ('FouGD t=%d w', t), post.w, w, 1e-12));
    stats.max_err = max (stats.max_err, e);
    mistake = post.err_count - pre.err_count;
    stats.mistakes += mistake;
    rows{t} = {sprintf('%d', t), sprintf('%d', id), sprintf('%d', y), okl_fmt(f), sprintf('%d', mistake), ...
               kind, sprintf('%d', strcmp (kind, 'step')), sprintf('%d', numel (post.SV)), okl_fmt(post.w)};
  end
end
