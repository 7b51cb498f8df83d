"""Trained weights shipped with the package (read by ``dehla.learn.value``)."""
