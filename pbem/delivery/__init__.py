"""Delivery: mail out (SMTP, outbox), the inbox (Maildir, mbox, IMAP), git play, and the
deadline clock and reminders."""
