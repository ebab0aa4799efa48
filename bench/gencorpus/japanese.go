package main

import (
	"fmt"
	"strings"
)

// Japanese prose for the mixed corpus: teams that write their memory in
// Japanese mix English identifiers into it, so the nouns are half katakana
// and kanji, half the English vocabulary. None of it holds an ASCII colon,
// a hash sign or a quote, so a sentence is safe in a plain YAML scalar.

var jaNouns = strings.Fields(`
キャッシュ 再試行 タイムアウト 設定 デプロイ ビルド テスト ブランチ リリース
依存関係 データベース マイグレーション ロック ワーカー ジョブ キュー ログ
メトリクス 監視 障害 切り戻し 手順 方針 レビュー 差分 索引 検索 要約 記録
スキーマ 接続 負荷 遅延 容量 権限 構成 環境 本番環境 検証環境 夜間ビルド
`)

var jaVerbs = strings.Fields(`
見直す 無効にする 分割する 統合する 計測する 記録する 確認する 固定する
更新する 削除する 再起動する 延ばす 減らす 増やす 分離する 共有する
`)

var jaAdjectives = strings.Fields(`
古い 不安定な 遅い 大きい 小さい 安全な 重い 軽い 新しい 一時的な
`)

// jaSentence returns one Japanese sentence ending in 。.
func (g *generator) jaSentence() string {
	n, n2, v, a := g.pick(jaNouns), g.pick(jaNouns), g.pick(jaVerbs), g.pick(jaAdjectives)
	en := g.pick(nouns)
	switch g.r.IntN(8) {
	case 0:
		return fmt.Sprintf("%sが%s場合は、先に%sを%s。", n, a, n2, v)
	case 1:
		return fmt.Sprintf("%sの%sは%sので、%sを%sこと。", en, n, a, n2, v)
	case 2:
		return fmt.Sprintf("%sを%s前に、必ず%sの%sを確認する。", n, v, en, n2)
	case 3:
		return fmt.Sprintf("チームでは%sの%sを%sと決めた。", n, en, v)
	case 4:
		return fmt.Sprintf("%sの%sは%d ms前後で、%sより%s。", n, en, 2+g.r.IntN(900), n2, a)
	case 5:
		return fmt.Sprintf("`%s` の%sを%s必要がある。", en, n, v)
	case 6:
		return fmt.Sprintf("%sで%sが起きたら、%sを%s。", g.pick(jaNouns), n, n2, v)
	default:
		return fmt.Sprintf("%sと%sは同じ%sを使うため、別々に%sことはしない。", n, n2, en, v)
	}
}

// jaParagraph returns min to max Japanese sentences and a blank line.
func (g *generator) jaParagraph(min, max int) string {
	var b strings.Builder
	for range min + g.r.IntN(max-min+1) {
		b.WriteString(g.jaSentence())
	}
	b.WriteString("\n\n")
	return b.String()
}

// jaHeadings are section titles of Japanese bodies.
var jaHeadings = []string{"背景", "決定事項", "理由", "手順", "注意点", "影響", "今後の対応"}

// jaDescription is a knowledge description written in Japanese, one
// sentence or two, under 200 characters.
func (g *generator) jaDescription(rec *record) string {
	subject := strings.ReplaceAll(rec.slug, "-", " ")
	switch rec.kkind {
	case "rule":
		return fmt.Sprintf("%sに関するルール。%sを%s前に読むこと。", subject, g.pick(jaNouns), g.pick(jaVerbs))
	case "howto":
		return fmt.Sprintf("%sの%sを%s手順。%sの設定を変える前に読む。", subject, g.pick(jaNouns), g.pick(jaVerbs), g.pick(nouns))
	case "fact":
		return fmt.Sprintf("%sが%s理由と、%sへの影響。%sの障害を調べるときに読む。", subject, g.pick(jaAdjectives), g.pick(jaNouns), g.pick(nouns))
	case "term":
		return fmt.Sprintf("チームが%sと呼ぶものの意味と、%sとの違い。", subject, g.pick(jaNouns))
	default:
		return fmt.Sprintf("%sについてのチームの方針と、%sを%s人。", subject, g.pick(jaNouns), g.pick(jaVerbs))
	}
}
