;;; emacs_driver.el --- drive Eglot on a launcher as a user would, write what it saw as JSON  -*- lexical-binding: t -*-
;; Run by tests/e2e/test_emacs.py: emacs --batch -Q -l emacs_driver.el FILE OUT CLIENT, with packgate
;; on PATH and the README's setup for CLIENT (eglot: emacs_eglot.el, lsp-mode: emacs_lsp_mode.el)
;; loaded as an init file would be.
;; Debian's elpa-eglot, from the system's package directory, as `package-initialize' finds it.
(require 'package)
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'json)
(require 'sh-script)

(defvar driver-file (nth 0 command-line-args-left))
(defvar driver-out (nth 1 command-line-args-left))
(defvar driver-client (nth 2 command-line-args-left))
(setq command-line-args-left nil)
(defvar driver-result (list (cons 'steps nil)))
(defvar driver-dir (file-name-directory load-file-name))

(defun driver-note (key value)
  "Record VALUE under KEY for the test."
  (push (cons key value) driver-result))

(defun driver-wait (done what &optional seconds)
  "Run the event loop (and Flymake, which batch mode does not start) until DONE holds."
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (and (not (funcall done)) (< (float-time) deadline))
      (when (bound-and-true-p flymake-mode) (flymake-start))
      (accept-process-output nil 0.2))
    (or (funcall done) (progn (driver-note 'failed what) nil))))

(defun driver-packgate-diagnostics ()
  "The PG001 findings: Eglot puts the code in the text, lsp-mode shows the message alone, so
an error that names the missing companion gate counts as well."
  (seq-filter (lambda (d)
                (let ((text (format "%s" (flymake-diagnostic-text d))))
                  (or (string-match-p "PG001" text)
                      (and (eq (flymake-diagnostic-type d) :error)
                           (string-match-p "OFFLINE_PACKED_DATA" text)))))
              (flymake-diagnostics)))

(defun driver-finish ()
  (with-temp-file driver-out (insert (json-encode driver-result)))
  (kill-emacs 0))

(condition-case err
    (progn
      (if (equal driver-client "lsp-mode")
          (progn
            ;; lsp-mode asks which project a file belongs to: answer it beforehand, as a user
            ;; does once with M-x lsp-workspace-folders-add; Flymake as in the Eglot run.
            (setq lsp-diagnostics-provider :flymake lsp-enable-suggest-server-download nil
                  lsp-enable-snippet nil lsp-headerline-breadcrumb-enable nil lsp-modeline-code-actions-enable nil)
            (load (expand-file-name "emacs_lsp_mode.el" driver-dir) nil t)
            (require 'lsp-mode)
            (lsp-workspace-folders-add (file-name-directory driver-file)))
        (load (expand-file-name "emacs_eglot.el" driver-dir) nil t)
        (require 'eglot))
      ;; Opening the file runs sh-mode-hook (eglot-ensure, lsp-deferred); both connect after the
      ;; command, from hooks batch mode never runs: run them as the command loop would.
      (switch-to-buffer (find-file-noselect driver-file))
      (run-hooks 'post-command-hook)
      ;; lsp-deferred starts from an idle timer, and batch Emacs is never idle: start it the
      ;; way that timer does, once the hook has marked the buffer deferred.
      (when (and (equal driver-client "lsp-mode") (bound-and-true-p lsp--buffer-deferred))
        (lsp))
      (driver-wait (lambda () (driver-packgate-diagnostics)) "diagnostics")
      (let ((d (car (driver-packgate-diagnostics))))
        (when d
          (driver-note 'diagnostic
                       (list (cons 'text (flymake-diagnostic-text d))
                             (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                             ;; Characters from the line start (current-column would count CJK as 2).
                             (cons 'start (- (flymake-diagnostic-beg d) (save-excursion (goto-char (flymake-diagnostic-beg d)) (line-beginning-position))))
                             (cons 'end (- (flymake-diagnostic-end d) (save-excursion (goto-char (flymake-diagnostic-beg d)) (line-beginning-position))))
                             (cons 'covered (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))))
          ;; Hover: the eldoc function Eglot registers, with point on the gate.
          (goto-char (flymake-diagnostic-beg d))
          (goto-char (line-beginning-position))
          (search-forward "OFFLINE_PACKING_BMR")
          (backward-char 3)
          (if (equal driver-client "lsp-mode")
              (progn
                (lsp-describe-thing-at-point)
                (driver-wait (lambda () (get-buffer "*lsp-help*")) "hover")
                (driver-note 'hover (with-current-buffer (get-buffer-create "*lsp-help*")
                                      (buffer-substring-no-properties (point-min) (point-max)))))
            (let (hover)
              (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
              (driver-wait (lambda () hover) "hover")
              (driver-note 'hover hover)))
          ;; The quick fix as M-x eglot-code-actions (lsp-execute-code-action) offers it; the "user" picks the one that
          ;; sets OFFLINE_PACKED_DATA from the completion list.
          ;; Invoked from the keyboard (M-x), so Eglot asks with completing-read, not a popup menu.
          (let* ((titles nil)
                 (last-nonmenu-event ?\r)
                 (completing-read-function
                  (lambda (_prompt collection &rest _)
                    (setq titles (all-completions "" collection))
                    (or (seq-find (lambda (title) (string-match-p "OFFLINE_PACKED_DATA" title)) titles)
                        (car titles)))))
            (if (equal driver-client "lsp-mode")
                (call-interactively #'lsp-execute-code-action)
              (eglot-code-actions (line-beginning-position) (line-end-position) nil t))
            (driver-note 'titles titles))
          (save-buffer)
          (driver-wait (lambda () (null (driver-packgate-diagnostics))) "the finding gone")
          (driver-note 'remaining (length (driver-packgate-diagnostics)))))
      (driver-finish))
  (error (driver-note 'error (error-message-string err)) (driver-finish)))
