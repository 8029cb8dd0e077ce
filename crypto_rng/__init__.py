"""tensorzoo crypto_rng: CSPRNG generators and AES128 encrypt/decrypt (mirrors torchcsprng 0.2)."""
