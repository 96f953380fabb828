% perceptron-lab: oracle fixtures from the authors' MATLAB code of "Large scale online kernel
% learning" (Lu, Hoi et al., JMLR 2016), github.com/jingcoco/Online-Kernel-Learning, binary/.
%
%   octave-cli --norc --no-window-system -q tests/tools/okl_oracle/okl_oracle.m CHECKOUT [OUTDIR [COMMIT]]
%
% CHECKOUT: a directory holding the authors' binary/*.m (a clone, or `git archive` of one);
% OUTDIR: where the fixtures go (default tests/data/okl); COMMIT: the authors' commit hash to
% record (default: `git -C CHECKOUT rev-parse HEAD`, else the OKL_COMMIT environment variable).
% Their files are run unmodified; randperm (BOGD's removal) and randn (FOGD's frequencies) are
% shadowed by tests/tools/okl_oracle/shadow/ to serve pre-drawn values, and sign is shadowed to
% observe f_t and the learner's state each round. Every recorded round is checked against the
% rules as RULES.md states them (okl_rounds_*.m); a disagreement stops the run with an error.
1;
args = argv ();
if (numel (args) < 1)
  error ('usage: okl_oracle.m CHECKOUT [OUTDIR [COMMIT]]');
end
checkout = args{1};
here = fileparts (mfilename ('fullpath'));
if (numel (args) >= 2), outdir = args{2}; else outdir = fullfile (here, '..', '..', 'data', 'okl'); end
bin = fullfile (checkout, 'binary');
files = {'BOGD.m', 'BPAs.m', 'FouGD.m', 'NysGD.m', 'comp_K.m'};
for i = 1:numel (files)
  if (! exist (fullfile (bin, files{i}), 'file'))
    error ('okl_oracle: %s not found under %s', files{i}, bin);
  end
end
if (numel (args) >= 3)
  commit = args{3};
else
  [st, out] = system (sprintf ('git -C "%s" rev-parse HEAD 2>/dev/null', checkout));
  commit = strtrim (out);
  if (st != 0 || isempty (commit)), commit = getenv ('OKL_COMMIT'); end
  if (isempty (commit)), commit = 'unknown'; end
end
hashes = cellfun (@(f) sprintf ('%s sha256 %s', f, hash ('sha256', fileread (fullfile (bin, f)))), files, 'UniformOutput', false);
if (! exist (outdir, 'dir')), mkdir (outdir); end

warning ('off', 'Octave:shadowed-function');
addpath (bin);                          % the authors' functions
addpath (here);                         % our helpers (okl_*)
addpath (fullfile (here, 'shadow'));    % first on the path: sign, randperm, randn
for f = {'sign', 'randperm', 'randn'}
  w = which (f{1});
  if (isempty (strfind (w, fullfile ('okl_oracle', 'shadow'))))
    error ('okl_oracle: %s resolves to %s, not the shadow', f{1}, w);
  end
end

T = 80;
command = 'tests/tools/okl_oracle/run_oracle.sh SOURCE (= octave-cli --norc --no-window-system -q tests/tools/okl_oracle/okl_oracle.m CHECKOUT tests/data/okl COMMIT)';
common = {sprintf('# command: %s', command), ...
          sprintf('# authors: https://github.com/jingcoco/Online-Kernel-Learning commit %s (files run unmodified)', commit), ...
          sprintf('# authors'' files: %s', strjoin (hashes, '; ')), ...
          sprintf('# run under GNU Octave %s', version ())};

% ---- data ---------------------------------------------------------------------------------------
data = struct ();
for kind = {'dense', 'dup'}
  [X, Y] = okl_data (kind{1}, T);
  data.(kind{1}) = struct ('X', X, 'Y', Y);
  fn = fullfile (outdir, sprintf ('okl_data_%s.csv', kind{1}));
  fid = fopen (fn, 'w');
  fprintf (fid, '%s\n', common{1:2});
  fprintf (fid, '# data: okl_data(''%s'', %d) in tests/tools/okl_oracle/okl_data.m; round t presents row t (id_list = 1:%d)\n', kind{1}, T, T);
  fprintf (fid, 'id,y,x1,x2,x3\n');
  for t = 1:T
    fprintf (fid, '%d,%d,%s\n', t, Y(t), strrep (okl_fmt (X(t, :)), ' ', ','));
  end
  fclose (fid);
end

% ---- configurations -----------------------------------------------------------------------------
% BOGD: options.Budget, eta, lambda, gamma (the coefficient cap: max|alpha| <= eta*gamma), sigma.
% FouGD: options.Budget*options.D frequencies, eta_fou. NysGD: Budget, k (a fraction of B),
% eta_nogd. BPAs: Budget, C_BPAs. seed: of the pre-drawn values (Octave's builtin generators,
% state initialised from seed; the values used are written into the fixtures).
C = {};
C{end+1} = struct ('name', 'bogd_B1', 'learner', 'BOGD', 'data', 'dense', 'seed', 11, 'opt', struct ('Budget', 1, 'eta', 0.2, 'lambda', 0.01, 'gamma', 10, 'sigma', 1));
C{end+1} = struct ('name', 'bogd_B2', 'learner', 'BOGD', 'data', 'dense', 'seed', 12, 'opt', struct ('Budget', 2, 'eta', 0.2, 'lambda', 0.01, 'gamma', 2, 'sigma', 1));
C{end+1} = struct ('name', 'bogd_B3', 'learner', 'BOGD', 'data', 'dense', 'seed', 13, 'opt', struct ('Budget', 3, 'eta', 0.2, 'lambda', 0.01, 'gamma', 2, 'sigma', 1));
C{end+1} = struct ('name', 'bogd_B3_defaults', 'learner', 'BOGD', 'data', 'dense', 'seed', 14, 'opt', struct ('Budget', 3, 'eta', 0.2, 'lambda', 1 / T ^ 2, 'gamma', 10, 'sigma', 1));
C{end+1} = struct ('name', 'bogd_B5', 'learner', 'BOGD', 'data', 'dense', 'seed', 15, 'opt', struct ('Budget', 5, 'eta', 0.2, 'lambda', 0.01, 'gamma', 1.5, 'sigma', 0.5));
C{end+1} = struct ('name', 'bogd_B3_tie', 'learner', 'BOGD', 'data', 'dup', 'seed', 16, 'opt', struct ('Budget', 3, 'eta', 1, 'lambda', 0, 'gamma', 10, 'sigma', 1));
C{end+1} = struct ('name', 'fogd_D4', 'learner', 'FouGD', 'data', 'dense', 'seed', 21, 'opt', struct ('Budget', 1, 'D', 4, 'eta_fou', 0.2, 'sigma', 1));
C{end+1} = struct ('name', 'fogd_D6', 'learner', 'FouGD', 'data', 'dense', 'seed', 22, 'opt', struct ('Budget', 1, 'D', 6, 'eta_fou', 0.5, 'sigma', 0.5));
C{end+1} = struct ('name', 'fogd_D8', 'learner', 'FouGD', 'data', 'dense', 'seed', 23, 'opt', struct ('Budget', 2, 'D', 4, 'eta_fou', 0.002, 'sigma', 1));
C{end+1} = struct ('name', 'nogd_B4_k2', 'learner', 'NysGD', 'data', 'dense', 'seed', 0, 'opt', struct ('Budget', 4, 'k', 0.5, 'eta_nogd', 0.2, 'sigma', 1));
C{end+1} = struct ('name', 'nogd_B5_k2', 'learner', 'NysGD', 'data', 'dense', 'seed', 0, 'opt', struct ('Budget', 5, 'k', 0.4, 'eta_nogd', 0.2, 'sigma', 1));
C{end+1} = struct ('name', 'nogd_B6_k6', 'learner', 'NysGD', 'data', 'dense', 'seed', 0, 'opt', struct ('Budget', 6, 'k', 1, 'eta_nogd', 0.5, 'sigma', 1));
C{end+1} = struct ('name', 'nogd_B4_k3_tie', 'learner', 'NysGD', 'data', 'dup', 'seed', 0, 'opt', struct ('Budget', 4, 'k', 0.75, 'eta_nogd', 1, 'sigma', 1));
C{end+1} = struct ('name', 'bpas_B3', 'learner', 'BPAs', 'data', 'dense', 'seed', 0, 'opt', struct ('Budget', 3, 'C_BPAs', 1, 'sigma', 1));
C{end+1} = struct ('name', 'bpas_B5_C0.5', 'learner', 'BPAs', 'data', 'dense', 'seed', 0, 'opt', struct ('Budget', 5, 'C_BPAs', 0.5, 'sigma', 1));

printf ('%-18s %-6s %s\n', 'fixture', 'rounds', 'summary');
for ci = 1:numel (C)
  cfg = C{ci};
  X = data.(cfg.data).X; Y = data.(cfg.data).Y; opt = cfg.opt;
  draws = struct ('perm', [], 'normals', []);
  if (strcmp (cfg.learner, 'BOGD'))
    rand ('state', cfg.seed);
    draws.perm = floor (rand (1, 2 * T + 2) * opt.Budget) + 1;     % uniform positions 1..B
  elseif (strcmp (cfg.learner, 'FouGD'))
    randn ('state', cfg.seed);
    draws.normals = randn (1, size (X, 2) * opt.Budget * opt.D);
  elseif (strcmp (cfg.learner, 'NysGD') && opt.k * opt.Budget != fix (opt.k * opt.Budget))
    error ('%s: options.k * Budget must be an integer (eigs(K, k))', cfg.name);
  end
  R = okl_run (cfg.learner, X, Y, opt, T, draws);
  switch (cfg.learner)
    case 'BOGD'
      [cols, rows, st] = okl_rounds_bogd (R, X, Y, opt, T);
      params = sprintf ('Budget=%g eta=%.17g lambda=%.17g gamma(cap: max|alpha| <= eta*gamma after an over-budget update)=%g sigma=%g (our rbf gamma = 1/(2 sigma^2) = %.17g)', ...
                        opt.Budget, opt.eta, opt.lambda, opt.gamma, opt.sigma, 1 / (2 * opt.sigma ^ 2));
      draws_line = sprintf ('# draws: randperm shadowed; BOGD''s removal position idx = randperm(B)(1) is pre-drawn uniform in 1..B (Octave rand state %d), given on each evict row as draw_pos (1-based position in their SV order before the removal) and removed_id (that support''s id = the round it was added)', cfg.seed);
      summary = sprintf ('mistakes %d, evictions %d, cap fired %d, y*f==1 updates %d, max rel err of rule check %.2g', st.mistakes, st.evictions, st.cap_fired, st.ties_at_one, st.max_err);
    case 'FouGD'
      [cols, rows, st] = okl_rounds_fogd (R, X, Y, opt, T);
      Dt = opt.Budget * opt.D;
      params = sprintf ('Budget=%g D=%g (frequencies = Budget*D = %d, features 2*%d) eta_fou=%.17g sigma=%g (our rbf gamma = 1/(2 sigma^2) = %.17g; our features = %d)', ...
                        opt.Budget, opt.D, Dt, Dt, opt.eta_fou, opt.sigma, 1 / (2 * opt.sigma ^ 2), Dt);
      draws_line = sprintf ('# draws: randn shadowed; u = (1/sigma)*randn(%d, %d) from pre-drawn normals (Octave randn state %d); the frequency matrix u is in %s_freq.csv', size (X, 2), Dt, cfg.seed, cfg.name);
      summary = sprintf ('mistakes %d, updates %d, max rel err of rule check %.2g', st.mistakes, st.updates, st.max_err);
      u = R.snaps{1}.u;
      fid = fopen (fullfile (outdir, sprintf ('%s_freq.csv', cfg.name)), 'w');
      fprintf (fid, '%s\n', common{:});
      fprintf (fid, '# FouGD frequencies of %s: u = (1/sigma) * N, N the pre-drawn standard normals (column-major), sigma = %g; feature map [cos(u''*x''); sin(u''*x'')] (w = [w_cos(1..%d), w_sin(1..%d)])\n', cfg.name, opt.sigma, Dt, Dt);
      fprintf (fid, '# row = input feature j, column = frequency i: u(j,i); normal(j,i) = sigma * u(j,i)\n');
      fprintf (fid, 'feature,%s\n', strjoin (arrayfun (@(i) sprintf ('u%d', i), 1:Dt, 'UniformOutput', false), ','));
      for j = 1:size (u, 1)
        fprintf (fid, '%d,%s\n', j, strrep (okl_fmt (u(j, :)), ' ', ','));
      end
      fclose (fid);
    case 'NysGD'
      [cols, rows, st, map] = okl_rounds_nogd (R, X, Y, opt, T);
      params = sprintf ('Budget=%g k=%g (eigs(K, k*Budget = %d)) eta_nogd=%.17g sigma=%g (our rbf gamma = 1/(2 sigma^2) = %.17g; our rank = %d)', ...
                        opt.Budget, opt.k, opt.k * opt.Budget, opt.eta_nogd, opt.sigma, 1 / (2 * opt.sigma ^ 2), opt.k * opt.Budget);
      draws_line = '# draws: none (NysGD is deterministic); the map at the switch is in the _map.csv side file';
      summary = sprintf ('mistakes %d, loss steps %d, switch at t=%d, max rel err of rule check %.2g', st.mistakes, st.steps, st.switch_round, st.max_err);
      if (! isempty (map))
        fid = fopen (fullfile (outdir, sprintf ('%s_map.csv', cfg.name)), 'w');
        fprintf (fid, '%s\n', common{:});
        fprintf (fid, '# NysGD map of %s made at round %d from the supports %s: [V,D] = eigs(K, %d) (Octave: eig for <= 12 rows, largest magnitude first), M = D^-0.5 * V''\n', cfg.name, map.t, okl_fmt (map.SV), opt.k * opt.Budget);
        fprintf (fid, '# the eigenvectors'' signs (and order among equal eigenvalues) are the solver''s: compare w only through beta = w*M or f\n');
        fprintf (fid, 'row,eigenvalue,%s,%s\n', strjoin (arrayfun (@(i) sprintf ('V%d', i), 1:opt.Budget, 'UniformOutput', false), ','), ...
                 strjoin (arrayfun (@(i) sprintf ('M%d', i), 1:opt.Budget, 'UniformOutput', false), ','));
        for i = 1:numel (map.eigenvalues)
          fprintf (fid, '%d,%s,%s,%s\n', i, okl_fmt (map.eigenvalues(i)), strrep (okl_fmt (map.V(:, i)'), ' ', ','), strrep (okl_fmt (map.M(i, :)), ' ', ','));
        end
        fclose (fid);
      end
    case 'BPAs'
      [cols, rows, st] = okl_rounds_bpas (R, X, Y, opt, T);
      params = sprintf ('Budget=%g C_BPAs=%.17g sigma=%g (our rbf gamma = 1/(2 sigma^2) = %.17g)', opt.Budget, opt.C_BPAs, opt.sigma, 1 / (2 * opt.sigma ^ 2));
      draws_line = '# draws: none (BPAs is deterministic)';
      summary = sprintf ('mistakes %d, replacements %d, smallest relative gap between the two smallest removal costs %.2g, max rel err of rule check %.2g', st.mistakes, st.replacements, st.min_gap, st.max_err);
  end
  total = R.err_count_total - (R.snaps{T + 1}.err_count < R.err_count_total);   % drop the probe's mistake
  if (total != st.mistakes)
    error ('%s: their err_count %d, per-round sum %d', cfg.name, total, st.mistakes);
  end
  fn = fullfile (outdir, sprintf ('%s.csv', cfg.name));
  fid = fopen (fn, 'w');
  fprintf (fid, '%s\n', common{:});
  fprintf (fid, '# learner: binary/%s.m; data: okl_data_%s.csv, rounds 1..%d in order; params: %s\n', cfg.learner, cfg.data, T, params);
  fprintf (fid, '%s\n', draws_line);
  fprintf (fid, '# columns: f = their f_t (before the update); mistake = their count (sign(f), sign(0) -> +1, != y); update/loss_update = what the round did (see RULES.md); state columns are after the round; lists are space-separated in their order\n');
  fprintf (fid, '# result: their err_count = %d over %d rounds; %s\n', total, T, summary);
  fprintf (fid, '%s\n', strjoin (cols, ','));
  for t = 1:T
    fprintf (fid, '%s\n', strjoin (rows{t}, ','));
  end
  fclose (fid);
  printf ('%-18s %-6d %s\n', cfg.name, T, summary);
end
