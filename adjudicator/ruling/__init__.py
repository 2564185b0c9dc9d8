"""From answer sets to a typed Ruling: findings, wins, payments, reasons, points."""
