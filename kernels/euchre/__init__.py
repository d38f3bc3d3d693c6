"""Standard four-handed Euchre kernels: deal with up-card, two rounds, dealer's discard, alone and lone defender, play, score."""
