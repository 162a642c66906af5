;; The README's Eglot setup for packgate (tests/e2e/test_readme_editors.py keeps the two equal).
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '((sh-mode bash-ts-mode) . ("packgate" "lsp"))))
(add-hook 'sh-mode-hook #'eglot-ensure)
