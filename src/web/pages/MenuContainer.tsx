/** A menu entry with children opened as a page: a card per child (its own chunk: list pages never show it). */
import { Card, Col, Row } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '../auth/session.js';
import { menuLabel, routeOf } from '../lib/menu.js';

export default function MenuContainer({ node }: { node: MenuNode }) {
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  return (
    <div className="page-container" data-testid="menu-container">
      <h2 className="page-title">{menuLabel(node, i18n.language)}</h2>
      <Row gutter={[16, 16]}>
        {node.children!.map((c) => (
          <Col key={c.id} xs={24} sm={12} md={8} lg={6}>
            <Card hoverable onClick={() => navigate(routeOf(c))}>{menuLabel(c, i18n.language)}</Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
