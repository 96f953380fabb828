function [cols, rows, stats] = okl_rounds_bpas (R, X, Y, opt, T)
  % Per-round records of a BPAs run, checked against the closed form RULES.md states (r* = first
  % arg min of alpha_r^2 (1 - k_rt^2), new coefficient alpha_r k_rt + y tau, in place).
  cols = {'t', 'id', 'y', 'f', 'mistake', 'update', 'loss_update', 'tau', 'replaced_pos', 'removed_id', ...
          'support_size', 'sv_ids', 'alpha'};
  rows = cell (T, 1);
  B = opt.Budget; C = opt.C_BPAs;
  stats = struct ('replacements', 0, 'mistakes', 0, 'max_err', 0, 'min_gap', Inf);
  for t = 1:T
    pre = R.snaps{t}; post = R.snaps{t + 1};
    id = pre.id; y = Y(id); f = pre.f;
    if (isempty (pre.alpha))
      kt = []; fe = 0;
    else
      kt = okl_kern (X, pre.SV, id, opt.sigma); fe = pre.alpha * kt;
    end
    e = okl_close (sprintf ('BPAs t=%d f', t), f, fe, 1e-12);
    l = max (0, 1 - y * f);
    a = pre.alpha; S = pre.SV; kind = 'none'; tau = NaN; rpos = NaN; removed = NaN;
    if (l > 0)
      tau = min (C, l);                     % s_t = 1: k(x,x) = 1 assumed (BPAs.m lines 57-58, 70-71)
      if (numel (pre.SV) < B)
        a = [a, y * tau]; S = [S, id]; kind = 'add';
      else
        q = pre.alpha .^ 2 .* (1 - kt' .^ 2);
        [~, rpos] = min (q);                % the first minimum, as BPAs.m's strict Q_r < Q_star
        qs = sort (q);                      % how close the choice came to a tie (relative gap)
        stats.min_gap = min (stats.min_gap, (qs(2) - qs(1)) / max (qs(2), realmin));
        removed = S(rpos);
        a(rpos) = pre.alpha(rpos) * kt(rpos) + y * tau; S(rpos) = id; kind = 'replace';
        stats.replacements += 1;
      end
    end
    if (! isequal (post.SV, S)), error ('BPAs t=%d: support ids %s, expected %s', t, mat2str (post.SV), mat2str (S)); end
    e = max (e, okl_close (sprintf ('BPAs t=%d alpha', t), post.alpha, a, 1e-12));
    stats.max_err = max (stats.max_err, e);
    mistake = post.err_count - pre.err_count;
    stats.mistakes += mistake;
    if (isnan (tau)), ts = ''; else ts = okl_fmt (tau); end
    if (isnan (rpos)), rs = ''; ids = ''; else rs = sprintf ('%d', rpos); ids = sprintf ('%d', removed); end
    rows{t} = {sprintf('%d', t), sprintf('%d', id), sprintf('%d', y), okl_fmt(f), sprintf('%d', mistake), ...
               kind, sprintf('%d', ! strcmp (kind, 'none')), ts, rs, ids, sprintf('%d', numel (post.SV)), ...
               okl_fmt(post.SV), okl_fmt(post.alpha)};
  end
end
