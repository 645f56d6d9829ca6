"""Order blocks and signatures: the armored block, finding it in mangled mail or forum text,
Ed25519/SSHSIG keys, signing, and sealing lines for commit and reveal."""
