;;; emacs_driver.el --- drive Eglot on a launcher as a user would, write what it saw as JSON  -*- lexical-binding: t -*-
;; Run by tests/e2e/test_emacs.py: emacs --batch -Q -l emacs_driver.el FILE OUT, with packgate on PATH
;; and the README's setup (emacs_eglot.el) loaded as an init file would be.
;; Debian's elpa-eglot, from the system's package directory, as `package-initialize' finds it.
(require 'package)
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'eglot)
(require 'json)
(require 'sh-script)

(defvar driver-file (nth 0 command-line-args-left))
(defvar driver-out (nth 1 command-line-args-left))
(setq command-line-args-left nil)
(defvar driver-result (list (cons 'steps nil)))

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
  (seq-filter (lambda (d) (string-match-p "PG001" (format "%s" (flymake-diagnostic-text d))))
              (flymake-diagnostics)))

(defun driver-finish ()
  (with-temp-file driver-out (insert (json-encode driver-result)))
  (kill-emacs 0))

(condition-case err
    (progn
      (load (expand-file-name "emacs_eglot.el" (file-name-directory load-file-name)) nil t)
      (require 'eglot)
      ;; Opening the file runs sh-mode-hook, so eglot-ensure; it connects after the command,
      ;; from post-command-hook, which batch mode never runs: run it as the command loop would.
      (switch-to-buffer (find-file-noselect driver-file))
      (run-hooks 'post-command-hook)
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
          (search-forward "OFFLINE_PACKING_BMR")
          (backward-char 3)
          (let (hover)
            (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
            (driver-wait (lambda () hover) "hover")
            (driver-note 'hover hover))
          ;; The quick fix as M-x eglot-code-actions offers it; the "user" picks the one that
          ;; sets OFFLINE_PACKED_DATA from the completion list.
          ;; Invoked from the keyboard (M-x), so Eglot asks with completing-read, not a popup menu.
          (let* ((titles nil)
                 (last-nonmenu-event ?\r)
                 (completing-read-function
                  (lambda (_prompt collection &rest _)
                    (setq titles (all-completions "" collection))
                    (or (seq-find (lambda (title) (string-match-p "OFFLINE_PACKED_DATA" title)) titles)
                        (car titles)))))
            (eglot-code-actions (line-beginning-position) (line-end-position) nil t)
            (driver-note 'titles titles))
          (save-buffer)
          (driver-wait (lambda () (null (driver-packgate-diagnostics))) "the finding gone")
          (driver-note 'remaining (length (driver-packgate-diagnostics)))))
      (driver-finish))
  (error (driver-note 'error (error-message-string err)) (driver-finish)))
