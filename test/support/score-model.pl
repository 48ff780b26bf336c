#!/usr/bin/perl
# A model of the official SemEval-2007 scorer (score.pl, key release), written
# for lexgold's tests from the behaviour documented in docs/scorer.md (and the
# project's reference notes): the same patterns, Perl's own split, hashes and
# arithmetic, so random files can be scored both ways and compared. It is not
# the official script; where that script's result depends on hash order (a
# line holding both "x y" and "x-y"), it takes lexgold's documented choice, and
# a blank answer is not attempted (lexgold's documented deviation, Q3).
#
#   perl score-model.pl SYSTEM GOLD best|oot|mw
#   perl score-model.pl --batch LIST      (LIST: one "SYSTEM GOLD TYPE" a line)
# prints one line of figures per run: the counts and the proportions (%.17g,
# "null" where a denominator is 0).
use strict;
use warnings;

sub num { my ($n, $d) = @_; return $d == 0 ? "null" : sprintf("%.17g", $n / $d); }

if (@ARGV == 2 && $ARGV[0] eq '--batch') {
  open(my $L, '<', $ARGV[1]) or die "cannot read $ARGV[1]\n";
  while (my $l = <$L>) {
    chomp $l;
    next unless $l =~ /\S/;
    print score(split(/ /, $l)), "\n";
  }
  exit 0;
}
die "usage: score-model.pl SYSTEM GOLD best|oot|mw\n" unless @ARGV == 3;
print score(@ARGV), "\n";
exit 0;

sub score {
my ($sysfile, $goldfile, $type) = @_;
open(my $G, '<', $goldfile) or die "cannot read $goldfile\n";
open(my $S, '<', $sysfile) or die "cannot read $sysfile\n";

if ($type eq 'mw') {
  my %mode;
  while (my $line = <$G>) {
    chomp $line;
    next unless $line =~ /([\w.]+)\s+(\d+)\s*\:\: (.*)/;
    my ($id, $rest) = ($2, $3);
    my ($m, $mc, $tie) = (undef, 0, 0);
    for my $e (split(/;/, $rest)) {
      next unless $e =~ /(\w[\w\'\-\s]+) (\d+)/;
      my ($s, $c) = ($1, $2);
      if (!defined $m) { $m = $s; $mc = $c; }
      elsif ($c == $mc) { $tie = 1; }
    }
    next unless defined $m && $mc > 1 && !$tie;
    $m =~ s/'//;
    $mode{$id} = $m;
  }
  my %done;
  my ($found, $genuine, $matched) = (0, 0, 0);
  while (my $line = <$S>) {
    chomp $line;
    next unless $line =~ /([\w.]+)\s+(\d+)\s*\:\:\s*(.*)\s*$/;
    my ($id, $ans) = ($2, $3);
    next if $done{$id}++;
    next unless $ans =~ /\S/;
    $found++;
    if (exists $mode{$id}) {
      $genuine++;
      $matched++ if $ans eq $mode{$id};
    }
  }
  my $mw = scalar(keys %mode);
  return join(" ", $mw, $found, $genuine, $matched, num($genuine, $found), num($genuine, $mw), num($matched, $found), num($matched, $mw));
}

# best / oot: the gold.
my (%norm, %mode);
my ($total, $tm) = (0, 0);
while (my $line = <$G>) {
  chomp $line;
  next unless $line =~ /([\w.]+) (\S+) \:\: (.*)/;
  my ($id, $rest) = ($2, $3);
  my @fields = grep { !/pn/ } split(/;/, $rest);
  my $first = 0;
  $first = $1 if @fields && $fields[0] =~ /[\w\'\-\s]+ (\d+)/;
  next unless @fields >= 2 || $first >= 2;
  $total++;
  my (%count, $m, $mc, $tie);
  for my $e (@fields) {
    next unless $e =~ /(\w[\w\'\-\s]+) (\d+)/;
    my ($s, $c) = ($1, $2);
    $s =~ s/'//;
    $count{$s} = $c;
    if (!defined $m) { $m = $s; $mc = $c; }
    elsif ($c == $mc) { $tie = 1; }
  }
  next unless %count;    # in T, but nothing to match: never attempted
  my $hu = 0;
  $hu += $_ for values %count;
  my %n;
  $n{$_} = $count{$_} / $hu for keys %count;
  for my $s (keys %count) {
    next unless $s =~ /-/;
    (my $spaced = $s) =~ s/-/ /g;
    $n{$spaced} = $n{$s} unless exists $count{$spaced};
  }
  $norm{$id} = \%n;
  if (defined $m && !$tie) { $mode{$id} = $m; $tm++; }
}

# The system file.
my $pattern = $type eq 'oot' ? qr/([\w.]+) (\S+) \:\:\: (.*)/ : qr/([\w.]+) (\S+) \:\: (.*)/;
my %done;
my ($attempted, $sum, $am, $hits) = (0, 0, 0, 0);
while (my $line = <$S>) {
  chomp $line;
  next unless $line =~ $pattern;
  my ($id, $ans) = ($2, $3);
  next unless exists $norm{$id};
  next if $done{$id}++;
  next unless $ans =~ /\S/;
  my @g = split(/;/, $ans);
  next unless @g;
  for (@g) {
    s/^non(\s|-)(.*)/non$2/;
    s/-/ /g;
    s/'//;
  }
  @g = @g[0 .. 9] if $type eq 'oot' && @g > 10;
  $attempted++;
  my $credit = 0;
  for my $g (@g) { $credit += $norm{$id}{$g} if exists $norm{$id}{$g}; }
  $sum += $type eq 'best' ? $credit / scalar(@g) : $credit;
  if (exists $mode{$id}) {
    $am++;
    if ($type eq 'best') { $hits++ if $g[0] eq $mode{$id}; }
    else { $hits++ if grep { $_ eq $mode{$id} } @g; }
  }
}
return join(" ", $total, $attempted, num($sum, $attempted), num($sum, $total), $tm, $am, num($hits, $am), num($hits, $tm));
}
