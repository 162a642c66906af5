;; The README's lsp-mode setup for packgate (tests/e2e/test_readme_editors.py keeps the two equal).
(with-eval-after-load 'lsp-mode
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection '("packgate" "lsp"))
                    :activation-fn (lsp-activate-on "shellscript")
                    :server-id 'packgate
                    :add-on? t
                    :custom-capabilities '((general . ((positionEncodings . ["utf-32"])))))))
(add-hook 'sh-mode-hook #'lsp-deferred)
